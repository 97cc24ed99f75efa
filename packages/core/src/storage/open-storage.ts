/**
 * Resolves the `db` option into an open database: nothing -> a new embedded database; a
 * driver `Db` or an embedded database -> used as is; a driver `MongoClient` -> its default
 * database; a connection string -> a new client, connected here and closed by `close()`.
 */
import { MongoClient } from 'mongodb';
import { createEmbeddedDb, isEmbeddedDb } from './embedded/index';
import type { StoreDb } from './types';

/** What the `db` option accepts. */
export type StorageOption = StoreDb | MongoClient | string | undefined | null;

/** An opened storage. */
export interface OpenedStorage {
  db: StoreDb;
  engine: 'embedded' | 'mongodb';
  /** Closes what `openStorage` opened itself (an embedded database, a client from a URI); nothing else. */
  close(): Promise<void>;
}

/** Thrown for a `db` option that is none of the accepted kinds (`code: 'invalid_config'`). */
export class StorageOptionError extends Error {
  override readonly name = 'StorageOptionError';
  readonly code = 'invalid_config';
  readonly status = 500;
  readonly data = { option: 'db' };
}

const URI_SCHEME = /^mongodb(\+srv)?:\/\//;
const noop = async (): Promise<void> => undefined;

const hasFunction = (value: object, name: string): boolean =>
  typeof (value as Record<string, unknown>)[name] === 'function';

/** The database name in the path of a connection string (`mongodb://h1,h2/<name>?...`), if any. */
export function databaseNameOf(uri: string): string | undefined {
  const afterHosts = uri.replace(URI_SCHEME, '');
  const slash = afterHosts.indexOf('/');
  if (slash < 0) return undefined;
  const path = afterHosts.slice(slash + 1).split('?')[0] ?? '';
  return path === '' ? undefined : decodeURIComponent(path);
}

async function connect(uri: string, env: Record<string, string | undefined>): Promise<OpenedStorage> {
  if (!URI_SCHEME.test(uri)) {
    throw new StorageOptionError(
      'Invalid @store option "db": a connection string must start with mongodb:// or mongodb+srv://.',
    );
  }
  const client = new MongoClient(uri);
  await client.connect();
  const name = databaseNameOf(uri) ?? (env.MONGODB_DB || undefined);
  return { db: client.db(name), engine: 'mongodb', close: () => client.close() };
}

/**
 * Opens the storage the `db` option names. `env` supplies `MONGODB_DB`, the database name
 * used when a connection string has none (then the driver's default, `test`).
 */
export async function openStorage(
  option: StorageOption,
  env: Record<string, string | undefined> = process.env,
): Promise<OpenedStorage> {
  if (option === undefined || option === null) {
    const db = createEmbeddedDb();
    return { db, engine: 'embedded', close: () => db.close() };
  }
  if (typeof option === 'string') return connect(option, env);
  if (typeof option === 'object' && hasFunction(option, 'collection')) {
    return { db: option as StoreDb, engine: isEmbeddedDb(option) ? 'embedded' : 'mongodb', close: noop };
  }
  if (
    option instanceof MongoClient ||
    (typeof option === 'object' && hasFunction(option, 'db') && hasFunction(option, 'connect'))
  ) {
    return { db: (option as MongoClient).db(), engine: 'mongodb', close: noop };
  }
  throw new StorageOptionError(
    'Invalid @store option "db": expected a MongoDB connection string, a MongoClient, a driver Db or an embedded database.',
  );
}
