import {
  checkBaseUrl,
  checkBoolean,
  checkInteger,
  checkKeys,
  invalidOption,
  isPlainObject,
} from '@store/common';
import { DEFAULT_OWNER_FIELD, resolveAccess } from '../access/rules';
import { clientAddress } from '../http/client-key';
import type { ResourceConfig, StoreConfig, StoreDbOption } from '../model/config';
import { findResource } from '../model/find-resource';
import type { StoreLogger, StoreRequest } from '../model/http';
import type { ResolvedStoreOptions } from '../model/options';
import type { PluginStoreInput } from '../model/plugin';
import type { StoreDescription } from '../model/store-description';
import { databaseNameOf } from '../storage/open-storage';
import { resolveBudgets } from './budgets-option';
import { parseByteSize } from './byte-size';
import { resolveCors } from './cors-option';
import { resolveDialects } from './dialects-option';
import { resolveRateLimit } from './rate-limit-option';
import { resolveRealtime } from './realtime-option';
import { resolveRelationOptions } from './relation-options';
import {
  checkPlugins,
  checkRoutePaths,
  routePluginResources,
  setupPlugins,
  setupStoreWidePlugins,
} from './resolve-plugins';
import { resolveResources } from './resource-options';
import { storeDescription } from './store-description';
import { resolveTrustedProxies } from './trusted-proxies-option';
import { resolveWireId } from './wire-id-option';

const STORE_OPTIONS = [
  'db',
  'data',
  'cors',
  'resources',
  'restrict',
  'defaultAccess',
  'baseUrl',
  'defaultLimit',
  'maxLimit',
  'maxBulk',
  'realtime',
  'bodyLimit',
  'maxTimeMS',
  'budgets',
  'timestamps',
  'trustedProxies',
  'rateLimit',
  'dialects',
  'wireId',
  'populate',
  'secret',
  'plugins',
  'logger',
] as const satisfies readonly (keyof StoreConfig)[];

/**
 * `db`: an empty string is no database (`db: process.env.MONGODB_URI` with the variable set
 * empty means the embedded engine); a connection string must name its database unless
 * `MONGODB_DB` does (the driver would silently use `test`).
 */
function checkDb(value: unknown, env: Record<string, string | undefined> = process.env): StoreDbOption {
  if (value === '') return undefined;
  if (
    typeof value === 'string' &&
    /^mongodb(\+srv)?:\/\/./.test(value) &&
    !databaseNameOf(value) &&
    !env.MONGODB_DB
  ) {
    invalidOption(
      'db',
      'the connection string names no database: add one (mongodb://host:27017/mydb) or set MONGODB_DB',
    );
  }
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

/** The embedded engine's data directory (`data`), or undefined for memory. */
function checkData(value: unknown, db: StoreDbOption): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    invalidOption('data', 'expected a directory for the embedded engine\'s data, or "memory"');
  }
  if (db !== undefined && db !== null) {
    invalidOption(
      'data',
      "keeps the embedded engine's data and cannot be combined with db (MongoDB keeps its own)",
    );
  }
  return value === 'memory' ? undefined : value;
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
 * `OptionError` (code `invalid_config`) whose `option` and message name the offending option.
 */
export function resolveStoreOptions(config: StoreConfig = {}): ResolvedStoreOptions {
  if (isPlainObject(config) && Object.hasOwn(config, 'openapi')) {
    invalidOption(
      'openapi',
      "moved to the @store/openapi plugin: `import { openapi } from '@store/openapi'` and `plugins: [openapi()]` (docs/openapi.md)",
    );
  }
  checkKeys(config, '', STORE_OPTIONS);
  const timestamps = checkBoolean(config.timestamps ?? false, 'timestamps');
  const maxLimit = checkInteger(config.maxLimit ?? 1000, 'maxLimit', 1);
  const defaultLimit = checkInteger(config.defaultLimit ?? 10, 'defaultLimit', 1);
  if (defaultLimit > maxLimit) invalidOption('defaultLimit', `must not exceed maxLimit (${maxLimit})`);
  const maxBulk = checkInteger(config.maxBulk ?? 1000, 'maxBulk', 1);
  const bodyLimit = parseByteSize(config.bodyLimit ?? '1mb');
  if (bodyLimit === undefined)
    invalidOption('bodyLimit', 'expected a number of bytes or a size such as "1mb"');
  const { budgets, maxTimeMS } = resolveBudgets(config.budgets, config.maxTimeMS, bodyLimit);
  const defaultAccessConfig = config.defaultAccess ?? 'public';
  const defaultAccess = resolveAccess(defaultAccessConfig, 'defaultAccess', DEFAULT_OWNER_FIELD);
  const plugins = checkPlugins(config.plugins ?? []);
  const declared = resolveResources(config.resources ?? {}, {
    timestamps,
    access: defaultAccessConfig,
    plugins: plugins.claimed,
  });
  const restrict = checkBoolean(config.restrict ?? false, 'restrict');
  const baseUrl = checkBaseUrl(config.baseUrl, 'baseUrl');
  const logger = checkLogger(config.logger ?? console);
  const trustedProxies = resolveTrustedProxies(config.trustedProxies ?? []);
  const resourceConfig = (config.resources ?? {}) as Record<string, Record<string, unknown>>;
  let resolved: ResolvedStoreOptions | undefined;
  let description: StoreDescription | undefined;
  const store: PluginStoreInput = {
    secret: config.secret,
    baseUrl,
    bodyLimit,
    logger,
    clientAddress: (request: StoreRequest) => clientAddress(request, trustedProxies),
    describe() {
      if (resolved === undefined) throw new Error('store.describe() answers once createStore has returned');
      description ??= storeDescription(resolved);
      return description;
    },
  };
  const resourcePlugins = setupPlugins(plugins.claimed, declared, resourceConfig, store);
  const routed = routePluginResources(declared, resourcePlugins, resourceConfig);
  const active = [...resourcePlugins, ...setupStoreWidePlugins(plugins.storeWide, store)];
  checkRoutePaths(active);
  const { resources, internalCollections } = routed;
  const table = { resources, restrict, timestamps, internalCollections, defaultAccess };
  const routable = (name: string) => findResource(table, name) !== undefined;
  const db = checkDb(config.db);
  const dialects = resolveDialects(config.dialects);
  resolved = {
    db,
    data: checkData(config.data, db),
    cors: resolveCors(config.cors, logger),
    resources,
    restrict,
    baseUrl,
    defaultLimit,
    maxLimit,
    maxBulk,
    bodyLimit,
    realtime: resolveRealtime(config.realtime, bodyLimit),
    maxTimeMS,
    budgets,
    timestamps,
    trustedProxies,
    rateLimit: resolveRateLimit(config.rateLimit),
    dialects,
    wireId: resolveWireId(config.wireId),
    logger,
    plugins: active,
    internalCollections,
    defaultAccess,
    ...resolveRelationOptions(
      config.populate,
      routed.configByRoute as Record<string, ResourceConfig>,
      routable,
      dialects.foreign,
    ),
  };
  return resolved;
}
