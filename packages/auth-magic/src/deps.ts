import type { AuthDb } from './db';
import type { ResolvedAuthOptions } from './resolved-options';

/** What every flow needs: the database and the resolved options. */
export interface AuthDeps {
  readonly db: AuthDb;
  readonly options: ResolvedAuthOptions;
}

/** Bundles a database and resolved options (from `resolveAuthOptions()`) for the flows. */
export function createAuthDeps(db: AuthDb, options: ResolvedAuthOptions): AuthDeps {
  return Object.freeze({ db, options });
}

const ready = new WeakMap<AuthDeps, Promise<void>>();

async function createIndexes(deps: AuthDeps): Promise<void> {
  const { db, options } = deps;
  const ttl = { expireAfterSeconds: 0 };
  const secretCollections = [options.magicLink?.collection, options.magicCode?.collection];
  const work: Promise<string>[] = [];
  for (const name of secretCollections) {
    if (name === undefined) continue;
    const secrets = db.collection(name);
    work.push(secrets.createIndex({ hash: 1 }, { unique: true }));
    work.push(secrets.createIndex({ email: 1, state: 1 }));
    work.push(secrets.createIndex({ expiresAt: 1 }, ttl));
  }
  if (options.magicLink !== null) {
    work.push(
      db
        .collection(options.magicLink.collection)
        .createIndex({ pollHash: 1 }, { unique: true, sparse: true }),
    );
  }
  const sessions = db.collection(options.sessionsCollection);
  work.push(sessions.createIndex({ hash: 1 }, { unique: true }), sessions.createIndex({ expiresAt: 1 }, ttl));
  const limits = db.collection(options.rateLimit.collection);
  work.push(limits.createIndex({ key: 1 }, { unique: true }), limits.createIndex({ expiresAt: 1 }, ttl));
  await Promise.all(work);
}

/**
 * Creates the package's indexes once per deps (unique hashes, TTL on `expiresAt` so expired
 * records vanish on MongoDB). Every flow awaits it; a failure is retried on the next call.
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
