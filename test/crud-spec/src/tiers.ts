/**
 * The tiers a spec test runs on: the official driver, majors 6 and 7, connected to test-kit's
 * wire front over the embedded engine; and the embedded engine's own API, where it can express
 * the test (one database object per database name; no client options, fail points or database
 * commands).
 */
import { createEmbeddedDb, type EmbeddedDb } from '@store/embedded';
import { startWireFront, type WireFront } from '@store/test-kit';
import * as engineBson from 'bson';

type Document = Record<string, unknown>;

/** What a test asks of its tier that the tier's API cannot express (embedded tier only). */
export class Inexpressible extends Error {}

/** Entity options of the unified format the tiers honour. */
export interface ClientEntity {
  id: string;
  uriOptions?: Document;
}

/** One tier, for the whole run. */
export interface Tier {
  readonly name: string;
  /** Whether the tier is a driver over the wire front (the tier the counts are taken on). */
  readonly driver: boolean;
  /** Loads what the tier needs (the driver, the wire front) before its first test. */
  start(): Promise<void>;
  /** A spec file's text as this tier's values (its own BSON library). */
  parse(text: string): Document;
  /** A fresh start for one test. */
  begin(): Promise<TierRun>;
  close(): Promise<void>;
}

/** A tier during one test. */
export interface TierRun {
  client(entity: ClientEntity): Promise<unknown>;
  database(client: unknown, name: string, options?: Document): unknown;
  collection(database: unknown, name: string, options?: Document): unknown;
  /** Drops `databases`, before a test's data is seeded. */
  reset(databases: Iterable<string>): Promise<void>;
  /** Fills `collection` of `database` with `documents` (creates it empty when there are none). */
  seed(database: string, collection: string, documents: Document[], createOptions?: Document): Promise<void>;
  /** The documents of `collection`, by `_id` ascending. */
  contents(database: string, collection: string): Promise<Document[]>;
  /** Sets a fail point through `client` (turned off at `end`). */
  failPoint(client: unknown, failPoint: Document): Promise<void>;
  end(): Promise<void>;
}

interface DriverModule {
  MongoClient: new (uri: string, options?: Document) => DriverClient;
  BSON: { EJSON: { parse(text: string, options: { relaxed: boolean }): unknown } };
}

interface DriverClient {
  connect(): Promise<DriverClient>;
  db(name: string, options?: Document): DriverDb;
  close(): Promise<void>;
}

interface DriverDb {
  collection(
    name: string,
    options?: Document,
  ): {
    insertMany(docs: Document[], options?: Document): Promise<unknown>;
    find(filter: Document, options?: Document): { toArray(): Promise<Document[]> };
  };
  createCollection(name: string, options?: Document): Promise<unknown>;
  dropDatabase(): Promise<unknown>;
  command(command: Document): Promise<Document>;
}

/** The driver tier of `major`: one wire front and a client per distinct `uriOptions`. */
export function driverTier(major: 6 | 7): Tier {
  let front: WireFront | undefined;
  let driver: DriverModule | undefined;
  const clients = new Map<string, Promise<DriverClient>>();
  const connect = (uriOptions: Document = {}): Promise<DriverClient> => {
    const key = JSON.stringify(uriOptions);
    let client = clients.get(key);
    if (!client) {
      if (!front || !driver) throw new Error('the driver tier is not started');
      client = new driver.MongoClient(front.uri, {
        serverSelectionTimeoutMS: 5_000,
        ...uriOptions,
      }).connect();
      clients.set(key, client);
    }
    return client;
  };
  return {
    name: `driver ${major}`,
    driver: true,
    async start() {
      front ??= await startWireFront();
      driver ??= (major === 6
        ? await import('mongodb6')
        : await import('mongodb7')) as unknown as DriverModule;
    },
    parse(text) {
      if (!driver) throw new Error('the driver tier is not started');
      return driver.BSON.EJSON.parse(text, { relaxed: true }) as Document;
    },
    async begin() {
      const internal = await connect();
      const used = new Set<string>();
      const failPoints: Array<{ client: DriverClient; name: unknown }> = [];
      const dbOf = (name: string) => {
        used.add(name);
        return internal.db(name);
      };
      return {
        client: (entity) => connect(entity.uriOptions),
        database: (client, name, options) => {
          used.add(name);
          return (client as DriverClient).db(name, options);
        },
        collection: (database, name, options) => (database as DriverDb).collection(name, options),
        async reset(databases) {
          for (const name of databases) await dbOf(name).dropDatabase();
        },
        async seed(database, collection, documents, createOptions) {
          const db = dbOf(database);
          if (documents.length === 0) await db.createCollection(collection, createOptions);
          else await db.collection(collection).insertMany(documents, { writeConcern: { w: 'majority' } });
        },
        contents: (database, collection) =>
          dbOf(database)
            .collection(collection)
            .find({}, { sort: { _id: 1 } })
            .toArray(),
        async failPoint(client, failPoint) {
          await (client as DriverClient).db('admin').command(failPoint);
          failPoints.push({ client: client as DriverClient, name: failPoint.configureFailPoint });
        },
        async end() {
          for (const { client, name } of failPoints) {
            await client.db('admin').command({ configureFailPoint: name, mode: 'off' });
          }
          for (const name of used) await internal.db(name).dropDatabase();
        },
      };
    },
    async close() {
      for (const client of clients.values()) await (await client).close();
      clients.clear();
      await front?.close();
      front = undefined;
    },
  };
}

/** The embedded engine's own API: a database object per name, fresh for every test. */
export function embeddedTier(): Tier {
  return {
    name: 'embedded',
    driver: false,
    async start() {},
    parse: (text) => engineBson.EJSON.parse(text, { relaxed: true }) as Document,
    async begin() {
      const databases = new Map<string, EmbeddedDb>();
      const dbOf = (name: string): EmbeddedDb => {
        let db = databases.get(name);
        if (!db) {
          db = createEmbeddedDb();
          databases.set(name, db);
        }
        return db;
      };
      return {
        async client(entity) {
          if (entity.uriOptions && Object.keys(entity.uriOptions).length > 0) {
            throw new Inexpressible(`client options ${Object.keys(entity.uriOptions).join(', ')}`);
          }
          return { db: dbOf };
        },
        database(client, name, options) {
          if (options && Object.keys(options).length > 0) {
            throw new Inexpressible(`database options ${Object.keys(options).join(', ')}`);
          }
          return (client as { db: typeof dbOf }).db(name);
        },
        collection(database, name, options) {
          if (options && Object.keys(options).length > 0) {
            throw new Inexpressible(`collection options ${Object.keys(options).join(', ')}`);
          }
          return (database as EmbeddedDb).collection(name);
        },
        async reset() {},
        async seed(database, collection, documents, createOptions) {
          if (createOptions && Object.keys(createOptions).length > 0) {
            throw new Inexpressible(`collection creation options ${Object.keys(createOptions).join(', ')}`);
          }
          if (documents.length > 0) await dbOf(database).collection(collection).insertMany(documents);
        },
        contents: (database, collection) =>
          dbOf(database)
            .collection(collection)
            .find({}, { sort: { _id: 1 } })
            .toArray(),
        failPoint() {
          throw new Inexpressible('fail points (a server test facility)');
        },
        async end() {
          for (const db of databases.values()) await db.close();
        },
      };
    },
    async close() {},
  };
}
