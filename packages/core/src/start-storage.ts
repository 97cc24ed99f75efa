import type { ResolvedStoreOptions } from './options';
import { openStorage } from './storage';
import type { StoreDb } from './storage/types';

/** Open storage, as the handler holds it. */
export interface StartedStorage {
  readonly db: StoreDb;
  close(): Promise<void>;
}

/** Name of the text index behind `$search`. */
export const SEARCH_INDEX = 'store_search';

/** Ensures the indexes the options call for: a text index over each resource's `search` fields. */
async function ensureIndexes(db: StoreDb, options: ResolvedStoreOptions): Promise<void> {
  const searchable = [...options.resources.values()].filter((resource) => resource.search.length > 0);
  await Promise.all(
    searchable.map((resource) =>
      db
        .collection(resource.collection)
        .createIndex(Object.fromEntries(resource.search.map((field) => [field, 'text' as const])), {
          name: SEARCH_INDEX,
        }),
    ),
  );
}

/** Opens the configured storage and ensures its indexes; closes what it opened if that fails. */
export async function startStorage(options: ResolvedStoreOptions): Promise<StartedStorage> {
  const storage = await openStorage(options.db);
  try {
    await ensureIndexes(storage.db, options);
  } catch (error) {
    await storage.close().catch(() => undefined);
    throw error;
  }
  return { db: storage.db, close: () => storage.close() };
}
