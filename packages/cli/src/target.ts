/**
 * Where the command's data lives: the embedded engine in memory, in a data directory
 * (`--data`), or a MongoDB database (`--db`), opened by the command itself so that a locked
 * directory or an unreachable server is a clear error before anything is served.
 */
import type { StoreDb } from '@store/common';
import { createEmbeddedDb, EmbeddedDataError } from '@store/embedded';
import { CliError } from './cli-error';

/** An opened database, with the collection listing import and export need. */
export interface Target {
  db: StoreDb;
  /** For the start-up line: `embedded (in memory)`, `embedded (data in ./d)`, `MongoDB (mongodb://host/shop)`. */
  description: string;
  /** Collection names holding data. */
  collectionNames(): Promise<string[]>;
  close(): Promise<void>;
}

/** How long a MongoDB server may take to answer before the command gives up. */
const SERVER_SELECTION_TIMEOUT_MS = 5_000;

/** A connection string with its password replaced, for messages. */
function redactUri(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/[^:/@]*):[^@/]*@/, '$1:***@');
}

function databaseName(uri: string): string | undefined {
  const path = uri.replace(/^mongodb(\+srv)?:\/\/[^/]*/, '').split('?')[0] ?? '';
  const name = decodeURIComponent(path.replace(/^\//, ''));
  return name === '' ? undefined : name;
}

async function openMongo(uri: string): Promise<Target> {
  if (!/^mongodb(\+srv)?:\/\/./.test(uri)) {
    throw new CliError(
      `--db must be a MongoDB connection string (mongodb://host/db), got "${redactUri(uri)}"`,
      2,
    );
  }
  const name = databaseName(uri);
  if (name === undefined) {
    throw new CliError(
      `--db ${redactUri(uri)} names no database: add one, as in mongodb://host:27017/mydb`,
      2,
    );
  }
  let driver: typeof import('mongodb');
  try {
    driver = await import('mongodb');
  } catch {
    throw new CliError('--db needs the MongoDB driver: npm install mongodb');
  }
  const client = new driver.MongoClient(uri, { serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS });
  try {
    await client.connect();
    await client.db(name).command({ ping: 1 });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new CliError(
      `cannot reach MongoDB at ${redactUri(uri)} (${(error as Error).message.split('\n')[0]}); is it running?`,
    );
  }
  const db = client.db(name);
  return {
    db: db as unknown as StoreDb,
    description: `MongoDB (${redactUri(uri)})`,
    collectionNames: async () =>
      (await db.listCollections({}, { nameOnly: true }).toArray())
        .map((each) => each.name)
        .filter((each) => !each.startsWith('system.'))
        .sort(),
    close: () => client.close(),
  };
}

/** Opens what `--db` / `--data` name (neither: in memory). */
export async function openTarget(flags: {
  db?: string | undefined;
  data?: string | undefined;
}): Promise<Target> {
  if (flags.db !== undefined && flags.data !== undefined) {
    throw new CliError('--db and --data cannot be used together: MongoDB keeps its own data', 2);
  }
  if (flags.db !== undefined) return openMongo(flags.db);
  const dir = flags.data === 'memory' ? undefined : flags.data;
  let db: ReturnType<typeof createEmbeddedDb>;
  try {
    db = createEmbeddedDb(dir === undefined ? {} : { dir });
  } catch (error) {
    if (error instanceof EmbeddedDataError) throw new CliError(error.message);
    throw error;
  }
  return {
    db,
    description:
      dir === undefined ? 'embedded (in memory: data is lost on exit)' : `embedded (data in ${dir})`,
    collectionNames: async () => (await db.listCollections().toArray()).map((each) => each.name),
    close: () => db.close(),
  };
}
