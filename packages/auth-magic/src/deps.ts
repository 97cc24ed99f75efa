import { type CollectionIndex, ensureIndexes, type IndexOptions, type IndexSpec } from '@store/common';
import type { PluginStoreSeams } from '@store/core';
import type { AuthDb } from './db';
import type { ResolvedAuthOptions } from './resolved-options';

/** What every flow needs: the database and the resolved options. */
export interface AuthDeps {
  readonly db: AuthDb;
  readonly options: ResolvedAuthOptions;
  /** The store's seams, when the flows run inside one: sessions they end end their event streams. */
  readonly seams?: PluginStoreSeams;
}

/**
 * Bundles a database and resolved options (from `resolveAuthOptions()`) for the flows, and the
 * store's `seams` when they run inside one (the plugin passes those `start` receives).
 */
export function createAuthDeps(db: AuthDb, options: ResolvedAuthOptions, seams?: PluginStoreSeams): AuthDeps {
  return Object.freeze(seams === undefined ? { db, options } : { db, options, seams });
}

const ready = new WeakMap<AuthDeps, Promise<void>>();

/**
 * How long a sign-in secret is kept past its `expiresAt` before MongoDB's TTL monitor (or the
 * embedded engine) deletes it: until then it answers 410 `token_expired` on both engines, whenever
 * the sweep runs. Expiry itself is read from `expiresAt`, never from the sweep.
 */
export const SECRET_RETENTION_SECONDS = 86_400;

/** An index the package owns, named `store_` + MongoDB's default name. */
function owned(collection: string, spec: IndexSpec, options: IndexOptions = {}): CollectionIndex {
  const name = `store_${Object.entries(spec)
    .map(([field, kind]) => `${field}_${kind}`)
    .join('_')}`;
  return { collection, index: { spec, options: { ...options, name } } };
}

/** Every index the package owns. */
function authIndexes(options: ResolvedAuthOptions): CollectionIndex[] {
  const indexes: CollectionIndex[] = [];
  for (const strategy of [options.magicLink, options.magicCode]) {
    if (strategy === null) continue;
    const { collection } = strategy;
    indexes.push(
      owned(collection, { hash: 1 }, { unique: true }),
      owned(collection, { email: 1, state: 1 }),
      owned(collection, { expiresAt: 1 }, { expireAfterSeconds: SECRET_RETENTION_SECONDS }),
    );
  }
  if (options.magicLink !== null) {
    indexes.push(owned(options.magicLink.collection, { pollHash: 1 }, { unique: true, sparse: true }));
  }
  // One user per address: concurrent first sign-ins of a new address create exactly one user.
  const emailFields = new Set([options.magicLink?.emailField, options.magicCode?.emailField]);
  for (const field of emailFields) {
    if (field !== undefined) {
      indexes.push(owned(options.userCollection, { [field]: 1 }, { unique: true, sparse: true }));
    }
  }
  const ttl = { expireAfterSeconds: 0 };
  const { sessionsCollection: sessions, rateLimit } = options;
  indexes.push(
    owned(sessions, { hash: 1 }, { unique: true }),
    owned(sessions, { userId: 1 }),
    owned(sessions, { expiresAt: 1 }, ttl),
    owned(rateLimit.collection, { key: 1 }, { unique: true }),
    owned(rateLimit.collection, { expiresAt: 1 }, ttl),
  );
  return indexes;
}

async function createIndexes(deps: AuthDeps): Promise<void> {
  await ensureIndexes(deps.db, authIndexes(deps.options), deps.options.logger);
}

/**
 * Reconciles the package's indexes once per deps (unique hashes and user addresses, TTL on
 * `expiresAt`). Every flow awaits it; a failure is retried on the next call.
 */
export function ensureAuthIndexes(deps: AuthDeps): Promise<void> {
  let pending = ready.get(deps);
  if (pending === undefined) {
    pending = createIndexes(deps).catch((error: unknown) => {
      ready.delete(deps);
      throw error;
    });
    ready.set(deps, pending);
  }
  return pending;
}
