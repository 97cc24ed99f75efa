/**
 * Where the command's data lives: the embedded engine in memory, in a data directory
 * (`--data`), or a MongoDB database (`--db`), opened by the command itself so that a locked
 * directory or an unreachable server is a clear error before anything is served.
 */
import type { Document, StoreDb } from '@store/common';
import { createEmbeddedDb, EmbeddedDataError, TEMPORARY_COLLECTION_PREFIX } from '@store/embedded';
import type { IndexDescription } from 'mongodb';
import { CliError } from './cli-error';

/** An opened database, with the collection listing import and export need. */
export interface Target {
  db: StoreDb;
  /** For the start-up line: `embedded (in memory)`, `embedded (data in ./d)`, `MongoDB (mongodb://host/shop)`. */
  description: string;
  /** Collection names holding data (an import's temporary collections left out). */
  collectionNames(): Promise<string[]>;
  /**
   * Inserts `docs` into `name` as `insertMany` does, the import handing them over: built from
   * the file, never touched again (the embedded engine keeps them rather than copying them).
   */
  insertHandedOver(name: string, docs: Document[]): Promise<unknown>;
  /** Creates the empty collection `name` with the indexes of `like` (an import's temporary collection). */
  createLike(name: string, like: string): Promise<void>;
  /**
   * Renames each `from` to its `to`, replacing what `to` held (the last step of an import): in
   * a data directory all at once, even across a crash; on MongoDB one collection after another.
   */
  renameOver(renames: Array<[from: string, to: string]>): Promise<void>;
  /** Drops the collection `name` (an import's temporary collection, when the import fails). */
  drop(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Whether `name` is a collection of the data (not an import's temporary one). */
const isData = (name: string): boolean => !name.startsWith(TEMPORARY_COLLECTION_PREFIX);

/** How long a MongoDB server may take to answer before the command gives up. */
const SERVER_SELECTION_TIMEOUT_MS = 5_000;
/** MongoDB's code for a collection that does not exist. */
const NAMESPACE_NOT_FOUND = 26;

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
        .filter((each) => !each.startsWith('system.') && isData(each))
        .sort(),
    insertHandedOver: (name, docs) => db.collection(name).insertMany(docs),
    async createLike(name, like) {
      await db.createCollection(name);
      // As mongorestore does: listIndexes' descriptions, less their version, create the same indexes.
      const indexes = await db
        .collection(like)
        .listIndexes()
        .toArray()
        .catch((error: { code?: unknown }) => {
          if (error.code === NAMESPACE_NOT_FOUND) return [];
          throw error;
        });
      const copies = indexes
        .filter((index) => index.name !== '_id_')
        .map(({ v: _version, ns: _namespace, ...index }) => index as IndexDescription);
      if (copies.length > 0) await db.collection(name).createIndexes(copies);
    },
    async renameOver(renames) {
      for (const [from, to] of renames) await db.renameCollection(from, to, { dropTarget: true });
    },
    async drop(name) {
      await db.dropCollection(name);
    },
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
    collectionNames: async () =>
      (await db.listCollections().toArray()).map((each) => each.name).filter(isData),
    insertHandedOver: (name, docs) => db.collection(name).insertHandedOver(docs),
    async createLike(name, like) {
      for (const { spec, options } of db.collection(like).image().indexes) {
        await db.collection(name).createIndex(spec, options);
      }
    },
    renameOver: (renames) => db.renameCollections(renames),
    async drop(name) {
      await db.dropCollection(name);
    },
    close: () => db.close(),
  };
}
