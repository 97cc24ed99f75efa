/** The store's options once resolved: defaults applied, every value checked. Types only. */
import type { ResolvedPopulateOptions } from '@store/populate';
import type { BudgetFunction, StoreDbOption, WireId } from './config';
import type { HookContext } from './hooks';
import type { StoreLogger } from './http';
import type { PluginInstance, StorePlugin } from './plugin';
import type { ResolvedAccess, ResolvedResource } from './resource';

/** `cors` resolved: which origins, and whether cookies and credentials go along. */
export interface ResolvedCors {
  /** `*`: any origin; a function: the origins it answers `true` for. */
  readonly origins: '*' | ReadonlySet<string> | ((origin: string) => boolean);
  readonly credentials: boolean;
}

/** A relation declared under `population`: its reference fields are indexed at start-up. */
export interface DeclaredRelation {
  /** The resource whose `population` declares it (the parent, read as `$populate`). */
  readonly resource: string;
  /** The related resource (the key under `population`). */
  readonly relation: string;
}

/** What `resolveRelationOptions` gives the resolved store options. */
export interface ResolvedRelationOptions {
  readonly populate: ResolvedPopulateOptions<HookContext>;
  readonly relations: readonly DeclaredRelation[];
}

/** A plugin that is on, for one resource of one store. */
export interface ActivePlugin {
  readonly plugin: StorePlugin;
  /** The resource carrying the claimed option, as configured (`user`); none for a store-wide plugin. */
  readonly resourceName: string | undefined;
  readonly instance: PluginInstance;
}

/** `realtime` resolved: every limit of the change-event streams. */
export interface ResolvedRealtime {
  readonly maxSubscribers: number;
  readonly maxStreamsPerClient: number;
  readonly signedInShare: number;
  readonly keepAliveSeconds: number;
  readonly replayEvents: number;
  readonly replayBytes: number;
  readonly maxQueuedBytes: number;
}

/** One class of `rateLimit` resolved: a bucket of `limit` tokens, refilled at `limit` per `windowSeconds`. */
export interface ResolvedRateLimitPolicy {
  readonly limit: number;
  readonly windowSeconds: number;
}

/** `rateLimit` resolved: the policy of each class (`undefined`: that class is not limited). */
export interface ResolvedRateLimit {
  readonly reads: ResolvedRateLimitPolicy | undefined;
  readonly writes: ResolvedRateLimitPolicy | undefined;
  readonly streams: ResolvedRateLimitPolicy | undefined;
  /** Clients whose buckets each class keeps (the least recently seen go first past it). */
  readonly maxClients: number;
}

/** `dialects` resolved: which foreign dialects are on; `foreign` when any is. */
export interface ResolvedDialects {
  readonly jsonServer: boolean;
  readonly simpleRest: boolean;
  readonly foreign: boolean;
}

/** `budgets` resolved: each a checked number, or a function called once per request. */
export interface ResolvedBudgets {
  readonly examined: number | BudgetFunction;
  readonly timeMS: number | BudgetFunction;
  readonly answerBytes: number | BudgetFunction;
}

/** `trustedProxies` resolved: which peers may say, in `X-Forwarded-For`, whom they forward for. */
export interface TrustedProxies {
  /** The addresses and CIDR ranges as configured. */
  readonly entries: readonly string[];
  /**
   * Whether `address` is one of them (an IPv4-mapped IPv6 address counts as its IPv4 address);
   * `false` for anything that is not an IP address.
   */
  has(address: string): boolean;
}

/** {@link StoreConfig} with defaults applied and every value checked. */
export interface ResolvedStoreOptions {
  readonly db: StoreDbOption;
  /** CORS, when on. */
  readonly cors: ResolvedCors | undefined;
  /** The embedded engine's data directory; undefined: in memory. */
  readonly data: string | undefined;
  readonly resources: ReadonlyMap<string, ResolvedResource>;
  readonly restrict: boolean;
  readonly baseUrl: string | undefined;
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly maxBulk: number;
  readonly bodyLimit: number;
  /** Change-event streams, unless `realtime: false`. */
  readonly realtime: ResolvedRealtime | undefined;
  /** The time limit of queries no request makes (plugins, start-up): `maxTimeMS`, else a number `budgets.timeMS`. */
  readonly maxTimeMS: number;
  /** What one request may cost; the functions are called once per request. */
  readonly budgets: ResolvedBudgets;
  readonly timestamps: boolean;
  /** The proxies whose `X-Forwarded-For` is believed (see `clientAddress`). */
  readonly trustedProxies: TrustedProxies;
  /** Rate limits per client, when on. */
  readonly rateLimit: ResolvedRateLimit | undefined;
  /** The foreign client dialects that are on (the store's own is always on). */
  readonly dialects: ResolvedDialects;
  /** The primary key's name on the wire (`wireId`): `_id`, or `id` for clients that expect it. */
  readonly wireId: WireId;
  readonly logger: StoreLogger;
  /** Relationship options (caps, singular overrides, constraints), resolved once by `@store/populate`. */
  readonly populate: ResolvedPopulateOptions<HookContext>;
  /** Relations declared under `resources.<name>.population`, whose reference fields are indexed. */
  readonly relations: readonly DeclaredRelation[];
  /** The plugins that are on (their option set and enabled), resolved once. */
  readonly plugins: readonly ActivePlugin[];
  /** Collections never routable as resources: the plugins' own. */
  readonly internalCollections: ReadonlySet<string>;
  /** The access of resources that declare none (undeclared ones included). */
  readonly defaultAccess: ResolvedAccess;
}
