/**
 * Resolves the `db` option into a database: nothing -> a new embedded database; a driver `Db`
 * or an embedded database -> used as is; a driver `MongoClient` -> its default database; a
 * connection string -> a new client (it connects on first use, so a database that is down at
 * start-up is retried by `startStorage`) closed by `close()`.
 *
 * `@store/embedded` and the application's `mongodb` driver are loaded only when used, so an
 * application on one engine never loads (or needs to install) the other.
 */
import { invalidOption, type StoreDb } from '@store/common';
import type { MongoClient } from 'mongodb';
import type { StorageOption } from '../model/config';

/** An opened storage. */
interface OpenedStorage {
  db: StoreDb;
  /** Closes what `openStorage` opened itself (an embedded database, a client from a URI); nothing else. */
  close(): Promise<void>;
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

/** The application's `mongodb` driver (a peer dependency), or a clear option error without it. */
async function loadDriver(): Promise<typeof import('mongodb')> {
  try {
    return await import('mongodb');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return invalidOption('db', 'a connection string needs the mongodb driver: npm install mongodb');
  }
}

/**
 * How long an operation waits for a server before it fails (and the store answers 503), unless
 * the connection string says: the driver's own default, 30 s, would hold every request that long.
 */
export const SERVER_SELECTION_TIMEOUT_MS = 5_000;

async function connect(uri: string, env: Record<string, string | undefined>): Promise<OpenedStorage> {
  if (!URI_SCHEME.test(uri)) {
    invalidOption('db', 'a connection string must start with mongodb:// or mongodb+srv://');
  }
  const { MongoClient } = await loadDriver();
  const ownTimeout = /[?&]serverSelectionTimeoutMS=/i.test(uri);
  const client = new MongoClient(
    uri,
    ownTimeout ? {} : { serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS },
  );
  const name = databaseNameOf(uri) ?? (env.MONGODB_DB || undefined);
  return { db: client.db(name), close: () => client.close() };
}

/**
 * Opens the storage the `db` option names (without one, the embedded engine, on disk in the
 * `data` directory when given: a directory locked or damaged rejects). `env` supplies `MONGODB_DB`, the database name
 * used when a connection string has none (then the driver's default, `test`).
 */
export async function openStorage(
  option: StorageOption,
  env: Record<string, string | undefined> = process.env,
  data?: string,
): Promise<OpenedStorage> {
  if (option === undefined || option === null) {
    const { createEmbeddedDb } = await import('@store/embedded');
    const db = createEmbeddedDb(data === undefined ? {} : { dir: data });
    return { db, close: () => db.close() };
  }
  if (typeof option === 'string') return connect(option, env);
  if (typeof option === 'object' && hasFunction(option, 'collection')) {
    return { db: option as StoreDb, close: noop };
  }
  if (typeof option === 'object' && hasFunction(option, 'db') && hasFunction(option, 'connect')) {
    return { db: (option as MongoClient).db(), close: noop };
  }
  return invalidOption(
    'db',
    'expected a MongoDB connection string, a MongoClient, a driver Db or an embedded database',
  );
}
