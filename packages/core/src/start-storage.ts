import { type AuthDeps, createAuthDeps, ensureAuthIndexes } from '@store/auth-magic';
import type { ResolvedStoreOptions } from './options';
import { ensureReferenceIndexes } from './reference-indexes';
import { openStorage } from './storage';
import type { StoreDb } from '@store/common';

/** Open storage, as the handler holds it. */
export interface StartedStorage {
  readonly db: StoreDb;
  /** What the auth flows need (the db and the resolved auth options); `null` without auth. */
  readonly auth: AuthDeps | null;
  close(): Promise<void>;
}

/** Name of the text index behind `$search`. */
export const SEARCH_INDEX = 'store_search';

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

/**
 * Opens the configured storage and ensures its indexes (the auth flows' too: unique hashes, TTL on
 * `expiresAt`); closes what it opened if that fails.
 */
export async function startStorage(options: ResolvedStoreOptions): Promise<StartedStorage> {
  const storage = await openStorage(options.db);
  const auth = options.auth === null ? null : createAuthDeps(storage.db, options.auth.options);
  try {
    await Promise.all([ensureIndexes(storage.db, options), auth && ensureAuthIndexes(auth)]);
  } catch (error) {
    await storage.close().catch(() => undefined);
    throw error;
  }
  return { db: storage.db, auth, close: () => storage.close() };
}
