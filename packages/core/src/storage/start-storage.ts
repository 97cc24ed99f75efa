import type { StoreDb } from '@store/common';
import type { ResolvedStoreOptions } from '../model/options';
import type { PluginInstance, PluginRuntime } from '../model/plugin';
import { openStorage } from './open-storage';
import { ensureReferenceIndexes } from './reference-indexes';

/** A plugin once storage is open: its resolved side and its request-time side. */
interface StartedPlugin {
  readonly instance: PluginInstance;
  readonly runtime: PluginRuntime;
}

/** Open storage, as the handler holds it. */
export interface StartedStorage {
  readonly db: StoreDb;
  /** The active plugins, started (indexes ensured), in the order of `plugins`. */
  readonly plugins: readonly StartedPlugin[];
  close(): Promise<void>;
}

/** Name of the text index behind `$search`. */
const SEARCH_INDEX = 'store_search';

/**
 * Ensures the indexes the options call for: a text index over each resource's `search` fields,
 * a `2dsphere` index on each `geo` field, and the reference fields of every relation declared
 * under `population`.
 */
async function ensureIndexes(db: StoreDb, options: ResolvedStoreOptions): Promise<void> {
  const resources = [...options.resources.values()];
  const searchable = resources.filter((resource) => resource.search.length > 0);
  await Promise.all([
    ensureReferenceIndexes(db, options),
    ...resources.flatMap((resource) =>
      resource.geo.map((field) => db.collection(resource.collection).createIndex({ [field]: '2dsphere' })),
    ),
    ...searchable.map((resource) =>
      db
        .collection(resource.collection)
        .createIndex(Object.fromEntries(resource.search.map((field) => [field, 'text' as const])), {
          name: SEARCH_INDEX,
        }),
    ),
  ]);
}

async function startPlugins(db: StoreDb, options: ResolvedStoreOptions): Promise<StartedPlugin[]> {
  return Promise.all(
    options.plugins.map(async ({ instance }) => ({ instance, runtime: await instance.start(db) })),
  );
}

/**
 * Opens the configured storage, ensures its indexes and starts the plugins (which ensure theirs);
 * closes what it opened if that fails.
 */
export async function startStorage(options: ResolvedStoreOptions): Promise<StartedStorage> {
  const storage = await openStorage(options.db);
  try {
    const [, plugins] = await Promise.all([
      ensureIndexes(storage.db, options),
      startPlugins(storage.db, options),
    ]);
    return { db: storage.db, plugins, close: () => storage.close() };
  } catch (error) {
    await storage.close().catch(() => undefined);
    throw error;
  }
}
