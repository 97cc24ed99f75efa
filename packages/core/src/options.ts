import type { ResolvedPopulateOptions } from '@store/populate';
import { isValidResourceName } from '@store/query';
import { checkAuthConfig, resolveStoreAuth, type StoreAuth, type UserAuthConfig } from './auth/options';
import { parseByteSize } from './byte-size';
import type { RequestContext } from './context';
import {
  checkBaseUrl,
  checkBoolean,
  checkCollectionName,
  checkFieldPath,
  checkInteger,
  checkKeys,
  invalidOption,
  isPlainObject,
} from './option-checks';
import {
  checkPopulation,
  checkSingular,
  type DeclaredRelation,
  type PopulateConfig,
  type PopulationConstraint,
  resolveRelationOptions,
} from './relation-options';
import { findResource, INTERNAL_COLLECTIONS, type ResolvedResource } from './resources';
import type { StorageOption } from './storage';
import type { StoreLogger } from './types';

/** What `db` accepts: a driver `Db` or embedded db, a `MongoClient`, or a connection string. */
export type StoreDbOption = StorageOption;

/** Options of one resource, under `resources.<name>`. */
export interface ResourceConfig {
  /**
   * Store `createdAt` / `updatedAt` Dates on this resource.
   * @default the global `timestamps`
   */
  timestamps?: boolean;
  /**
   * Fields `$search` looks in. A text index over them is ensured at start-up; `$search` on a
   * resource without searchable fields is a 400 `invalid_query`.
   * @default []
   */
  search?: string[];
  /**
   * Fields holding GeoJSON. A `2dsphere` index on each is ensured at start-up; `geo:near` needs
   * one (without it, the query answers 400 `invalid_query`), `geo:ins` / `geo:win` do not.
   * @default []
   */
  geo?: string[];
  /**
   * The collection that holds the documents.
   * @default the resource name
   */
  collection?: string;
  /**
   * Singular form of the resource name in reference fields (`<singular>_id`, `<singular>_ids`),
   * for names the pluralization library gets wrong: `{ staff: { singular: 'staffer' } }`.
   * @default pluralize.singular(name): `companies` -> `company`, `people` -> `person`
   */
  singular?: string;
  /**
   * Server-side constraints per relation, `population.<related resource> = { match, sort,
   * order, limit }` (`match` a filter or a function of the request context, `limit` per
   * document). The reference fields of each declared relation are indexed at start-up.
   * @default {}
   */
  population?: Record<string, PopulationConstraint>;
  /**
   * Passwordless login, on the user resource only (`resources.user.auth.magicLink` /
   * `.magicCode`; see docs/auth.md). With it, the user resource's collection defaults to
   * `users`, and that collection is never routable as a resource.
   * @default undefined (no auth routes)
   */
  auth?: UserAuthConfig | null;
}

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
  /** Passwordless login, resolved once; `null` when `resources.user.auth` enables no strategy. */
  readonly auth: StoreAuth | null;
  /** Collections never routable as resources: the store's own, plus the users' when auth is on. */
  readonly internalCollections: ReadonlySet<string>;
}

function checkFieldList(value: unknown, option: string): string[] {
  if (!Array.isArray(value)) invalidOption(option, 'expected an array of field names');
  return value.map((field, i) => checkFieldPath(field, `${option}[${i}]`));
}

/** Per-resource option checks: adding an option is one line here (and one field above). */
const RESOURCE_OPTIONS = {
  timestamps: checkBoolean,
  search: checkFieldList,
  geo: checkFieldList,
  collection: checkCollectionName,
  singular: checkSingular,
  population: checkPopulation,
  auth: checkAuthConfig,
} satisfies Record<keyof ResourceConfig, (value: unknown, option: string) => unknown>;

const STORE_OPTIONS = [
  'db',
  'resources',
  'restrict',
  'baseUrl',
  'defaultLimit',
  'maxLimit',
  'bodyLimit',
  'timestamps',
  'populate',
  'secret',
  'logger',
] as const satisfies readonly (keyof StoreConfig)[];

function resolveResource(name: string, value: unknown, timestamps: boolean): ResolvedResource {
  const option = `resources.${name}`;
  if (!isValidResourceName(name))
    invalidOption(option, 'a resource name matches ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$');
  const config = checkKeys(value, option, Object.keys(RESOURCE_OPTIONS)) as ResourceConfig;
  const collection = RESOURCE_OPTIONS.collection(
    config.collection ?? (config.auth ? `${name}s` : name),
    `${option}.collection`,
  );
  if (INTERNAL_COLLECTIONS.has(collection) || INTERNAL_COLLECTIONS.has(name)) {
    invalidOption(option, `"${collection}" is an internal collection of the store`);
  }
  return {
    name,
    collection,
    timestamps: RESOURCE_OPTIONS.timestamps(config.timestamps ?? timestamps, `${option}.timestamps`),
    search: Object.freeze(RESOURCE_OPTIONS.search(config.search ?? [], `${option}.search`)),
    geo: Object.freeze(RESOURCE_OPTIONS.geo(config.geo ?? [], `${option}.geo`)),
    declared: true,
  };
}

function resolveResources(value: unknown, timestamps: boolean): ReadonlyMap<string, ResolvedResource> {
  if (!isPlainObject(value)) invalidOption('resources', 'expected an object keyed by resource name');
  const resources = value;
  return new Map(
    Object.entries(resources).map(([name, config]) => [name, resolveResource(name, config, timestamps)]),
  );
}

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
  const resources = resolveResources(config.resources ?? {}, timestamps);
  const restrict = checkBoolean(config.restrict ?? false, 'restrict');
  const baseUrl = checkBaseUrl(config.baseUrl, 'baseUrl');
  const logger = checkLogger(config.logger ?? console);
  const { secret } = config;
  const auth = resolveStoreAuth({ resources, config: config.resources ?? {}, baseUrl, secret, logger });
  const internalCollections = auth?.collections ?? INTERNAL_COLLECTIONS;
  const table = { resources, restrict, timestamps, internalCollections };
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
    auth,
    internalCollections,
    ...resolveRelationOptions(config.populate, config.resources ?? {}, routable),
  };
}
