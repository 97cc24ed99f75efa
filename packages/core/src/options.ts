import type { ResolvedPopulateOptions } from '@store/populate';
import { type AccessConfig, DEFAULT_OWNER_FIELD, type ResolvedAccess, resolveAccess } from './access/rules';
import { parseByteSize } from './byte-size';
import type { RequestContext } from './context';
import { checkBaseUrl, checkBoolean, checkInteger, checkKeys, invalidOption } from '@store/common';
import { type DeclaredRelation, type PopulateConfig, resolveRelationOptions } from './relation-options';
import {
  type ActivePlugin,
  checkPlugins,
  routePluginResources,
  setupPlugins,
} from './plugins/resolve-plugins';
import type { StorePlugin } from './plugins/types';
import { type ResourceConfig, resolveResources } from './resource-options';
import { findResource, type ResolvedResource } from './resources';
import type { StorageOption } from './storage';
import type { StoreLogger } from './types';

/** What `db` accepts: a driver `Db` or embedded db, a `MongoClient`, or a connection string. */
export type StoreDbOption = StorageOption;

export type { ResourceConfig } from './resource-options';

/** The configuration of a store: what `createStore(config)` takes. */
export interface StoreConfig {
  /**
   * Where documents live: a driver `Db` or an embedded db, a `MongoClient` (its default
   * database), or a MongoDB connection string (the store opens and closes that client).
   * @default undefined (or null): a fresh in-memory embedded engine, closed by `close()`
   */
  db?: StoreDbOption;
  /**
   * Per-resource options, keyed by resource name.
   * @default {}
   */
  resources?: Record<string, ResourceConfig>;
  /**
   * Route only the resources declared in `resources`; other names pass to the next handler.
   * @default false
   */
  restrict?: boolean;
  /**
   * The access of every resource that declares no `access` (undeclared resources included):
   * a rule or `{ read, create, update, delete }`, as `resources.<name>.access`.
   * @default "public"
   */
  defaultAccess?: AccessConfig;
  /**
   * Public address of the store, used in `Location` headers (`<baseUrl>/<res>/<id>`).
   * @default undefined: the path the store is mounted at (`/api` under `app.use('/api', ...)`)
   */
  baseUrl?: string;
  /**
   * Page size when a list request has no `$limit`.
   * @default 10
   */
  defaultLimit?: number;
  /**
   * Largest page size; a larger `$limit` is clamped to it.
   * @default 1000
   */
  maxLimit?: number;
  /**
   * Largest accepted request body: bytes, or a string such as `"512kb"` or `"1mb"`.
   * @default "1mb"
   */
  bodyLimit?: number | string;
  /**
   * Store `createdAt` / `updatedAt` Dates on every resource (a resource can override it).
   * @default false
   */
  timestamps?: boolean;
  /**
   * Key of the HMAC over every stored sign-in secret and session token (`STORE_SECRET`), at
   * least 16 characters. Keep it stable: changing it ends every session.
   * @default a random secret per process, with one warning (only when auth is configured)
   */
  secret?: string;
  /**
   * `$populate`, `$fill` and nested routes: the per-document cap, relations per request.
   * @default { perParentCap: 1000, maxRelations: 10, batchRounds: 2 }
   */
  populate?: PopulateConfig;
  /**
   * Plugins, each claiming a resource option: `[magicAuth]` from `@store/auth-magic` turns
   * `resources.user.auth` into passwordless login.
   * @default []
   */
  plugins?: readonly StorePlugin[];
  /**
   * Receives the causes of 500 answers and warnings.
   * @default console
   */
  logger?: StoreLogger;
}

/** {@link StoreConfig} with defaults applied and every value checked. */
export interface ResolvedStoreOptions {
  readonly db: StoreDbOption;
  readonly resources: ReadonlyMap<string, ResolvedResource>;
  readonly restrict: boolean;
  readonly baseUrl: string | undefined;
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly bodyLimit: number;
  readonly timestamps: boolean;
  readonly logger: StoreLogger;
  /** Relationship options (caps, singular overrides, constraints), resolved once by `@store/populate`. */
  readonly populate: ResolvedPopulateOptions<RequestContext>;
  /** Relations declared under `resources.<name>.population`, whose reference fields are indexed. */
  readonly relations: readonly DeclaredRelation[];
  /** The plugins that are on (their option set and enabled), resolved once. */
  readonly plugins: readonly ActivePlugin[];
  /** Collections never routable as resources: the plugins' own. */
  readonly internalCollections: ReadonlySet<string>;
  /** The access of resources that declare none (undeclared ones included). */
  readonly defaultAccess: ResolvedAccess;
}

const STORE_OPTIONS = [
  'db',
  'resources',
  'restrict',
  'defaultAccess',
  'baseUrl',
  'defaultLimit',
  'maxLimit',
  'bodyLimit',
  'timestamps',
  'populate',
  'secret',
  'plugins',
  'logger',
] as const satisfies readonly (keyof StoreConfig)[];

function checkDb(value: unknown): StoreDbOption {
  const isConnectionString = typeof value === 'string' && /^mongodb(\+srv)?:\/\/./.test(value);
  const hasMethod = (name: string) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)[name] === 'function';
  const isClient = hasMethod('db') && hasMethod('connect');
  if (value !== undefined && value !== null && !isConnectionString && !hasMethod('collection') && !isClient) {
    invalidOption('db', 'expected a MongoDB connection string, a MongoClient, a Db or an embedded db');
  }
  return value as StoreDbOption;
}

function checkLogger(value: unknown): StoreLogger {
  const logger = value as Partial<StoreLogger> | null;
  if (typeof logger?.error !== 'function' || typeof logger.warn !== 'function') {
    invalidOption('logger', 'expected an object with error() and warn() methods, such as console');
  }
  return logger as StoreLogger;
}

/**
 * Applies the defaults of {@link StoreConfig} and checks every value, throwing a
 * `StoreError` with code `invalid_config` whose message names the offending option.
 */
export function resolveStoreOptions(config: StoreConfig = {}): ResolvedStoreOptions {
  checkKeys(config, '', STORE_OPTIONS);
  const timestamps = checkBoolean(config.timestamps ?? false, 'timestamps');
  const maxLimit = checkInteger(config.maxLimit ?? 1000, 'maxLimit', 1);
  const defaultLimit = checkInteger(config.defaultLimit ?? 10, 'defaultLimit', 1);
  if (defaultLimit > maxLimit) invalidOption('defaultLimit', `must not exceed maxLimit (${maxLimit})`);
  const bodyLimit = parseByteSize(config.bodyLimit ?? '1mb');
  if (bodyLimit === undefined)
    invalidOption('bodyLimit', 'expected a number of bytes or a size such as "1mb"');
  const defaultAccessConfig = config.defaultAccess ?? 'public';
  const defaultAccess = resolveAccess(defaultAccessConfig, 'defaultAccess', DEFAULT_OWNER_FIELD);
  const plugins = checkPlugins(config.plugins ?? []);
  const declared = resolveResources(config.resources ?? {}, {
    timestamps,
    access: defaultAccessConfig,
    plugins,
  });
  const restrict = checkBoolean(config.restrict ?? false, 'restrict');
  const baseUrl = checkBaseUrl(config.baseUrl, 'baseUrl');
  const logger = checkLogger(config.logger ?? console);
  const resourceConfig = (config.resources ?? {}) as Record<string, Record<string, unknown>>;
  const store = { secret: config.secret, baseUrl, bodyLimit, logger };
  const active = setupPlugins(plugins, declared, resourceConfig, store);
  const routed = routePluginResources(declared, active, resourceConfig);
  const { resources, internalCollections } = routed;
  const table = { resources, restrict, timestamps, internalCollections, defaultAccess };
  const routable = (name: string) => findResource(table, name) !== undefined;
  return {
    db: checkDb(config.db),
    resources,
    restrict,
    baseUrl,
    defaultLimit,
    maxLimit,
    bodyLimit,
    timestamps,
    logger,
    plugins: active,
    internalCollections,
    defaultAccess,
    ...resolveRelationOptions(
      config.populate,
      routed.configByRoute as Record<string, ResourceConfig>,
      routable,
    ),
  };
}
