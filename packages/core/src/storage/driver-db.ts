/**
 * A MongoDB driver `Db` as the store talks to it: every value sent is built
 * with the driver's own `bson`, every query carries `maxTimeMS` (the request's time budget when
 * the call gives one, else the store's; a `maxExamined` is dropped: MongoDB has no such limit),
 * and the driver's failures that mean "not now" answer 503 (`query_timeout`,
 * `database_unavailable` with `Retry-After`). The state of the connection is logged once per
 * change.
 */
import type {
  Document,
  FindOptions,
  IndexOptions,
  IndexSpec,
  ModifyOptions,
  StoreCollection,
  StoreDb,
  TimeLimit,
} from '@store/common';
import { storeError } from '../model/error-codes';
import type { StoreLogger } from '../model/http';
import { driverBsonOf, toDriverBson } from './driver-bson';

/** MongoDB's code for a query past its `maxTimeMS` (the embedded engine's too). */
export const MAX_TIME_MS_EXPIRED = 50;

/** The 503 of an operation past its time limit of `ms`, on either engine. */
export function queryTimeout(ms: number, cause: unknown) {
  return storeError(
    'query_timeout',
    `The query ran longer than ${ms} ms (budgets.timeMS); narrow it and try again.`,
    { cause, extensions: { budget: 'timeMS', limit: ms } },
  );
}

/** The options of one call as the store may give them: its time budget, and the embedded engine's `maxExamined`. */
type CallLimits = TimeLimit & { readonly maxExamined?: number };

/** Seconds a client is told to wait while the database cannot be reached. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The driver's errors (by name: the classes differ between majors) that mean the server could
 * not be reached or the connection was lost, rather than that it refused the operation.
 */
const UNREACHABLE_ERRORS: ReadonlySet<string> = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
]);

/** Whether an error means the database cannot be reached now. */
function isUnreachable(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && UNREACHABLE_ERRORS.has(name);
}

/** The 503 for a database that cannot be reached, telling the client when to try again. */
export function unavailableError(retryAfterSeconds: number, cause?: unknown) {
  return storeError('database_unavailable', 'The database cannot be reached now; try again shortly.', {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    cause,
  });
}

/** Logs one line per change between reachable and unreachable. */
export class Availability {
  #up = true;
  #stopped = false;
  constructor(private readonly logger: StoreLogger) {}

  get up(): boolean {
    return this.#up;
  }

  /** No more lines: the store is closing, and its own client with it. */
  stop(): void {
    this.#stopped = true;
  }

  reachable(): void {
    if (this.#up || this.#stopped) return;
    this.#up = true;
    this.logger.warn('[@store/core] the database is reachable again');
  }

  unreachable(error: unknown): void {
    if (!this.#up || this.#stopped) return;
    this.#up = false;
    // Operations queued behind a failed first connection fail with "Topology is closed" before
    // the selection error itself arrives: say what that means.
    const name = (error as Error | null)?.name;
    const reason =
      name === 'MongoTopologyClosedError'
        ? 'no server answered the first connection'
        : error instanceof Error
          ? `${error.name}: ${error.message}`
          : String(error);
    this.logger.error(
      `[@store/core] the database cannot be reached (${reason}); requests answer 503 until it is back`,
    );
  }
}

/** The part of a driver `Db` the wrapper uses. */
interface DriverDb extends StoreDb {
  readonly client?: {
    readonly options?: { readonly pkFactory?: { createPk(): unknown } };
    connect?(): Promise<unknown>;
  };
}

/**
 * The driver's error when no server answered in time. After one on a client's first (implicit)
 * connection, the driver closes that client's topology and every later operation fails with
 * `MongoTopologyClosedError` until `connect()` is called again.
 */
const SERVER_SELECTION_FAILED = 'MongoServerSelectionError';

/** Whether a `db` option value is a driver `Db` (rather than an embedded or other storage). */
export function isDriverDb(value: unknown): value is DriverDb {
  const db = value as { command?: unknown; databaseName?: unknown; client?: unknown } | null;
  return (
    typeof db === 'object' &&
    db !== null &&
    typeof db.command === 'function' &&
    typeof db.databaseName === 'string' &&
    typeof db.client === 'object'
  );
}

/** Settings of {@link driverDb}. */
export interface DriverDbSettings {
  readonly maxTimeMS: number;
  readonly availability: Availability;
}

/** Wraps a driver `Db`: see the module comment. */
export function driverDb(db: DriverDb, settings: DriverDbSettings): StoreDb {
  const bson = driverBsonOf(db);
  const send = <T>(value: T): T => (bson === undefined ? value : toDriverBson(value, bson));
  const { availability } = settings;

  /** `options` as the driver takes them: the call's `maxTimeMS`, else the store's; no `maxExamined`. */
  function timed<T extends CallLimits>(
    options: T | undefined,
  ): Omit<T, 'maxExamined'> & { maxTimeMS: number } {
    const { maxExamined: _dropped, ...rest } = options ?? ({} as T);
    return { ...rest, maxTimeMS: rest.maxTimeMS ?? settings.maxTimeMS };
  }

  /** Set after a server selection failure: the next call connects the client again first. */
  let reconnect = false;

  /** Runs one driver call limited to `maxTimeMS` ms, turning "not now" failures into 503s. */
  async function guard<T>(maxTimeMS: number, call: () => Promise<T>): Promise<T> {
    try {
      if (reconnect) {
        await db.client?.connect?.();
        reconnect = false;
      }
      const result = await call();
      availability.reachable();
      return result;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === MAX_TIME_MS_EXPIRED) {
        throw queryTimeout(maxTimeMS, error);
      }
      if (isUnreachable(error)) {
        if ((error as Error).name === SERVER_SELECTION_FAILED) reconnect = true;
        availability.unreachable(error);
        throw unavailableError(UNAVAILABLE_RETRY_AFTER_SECONDS, error);
      }
      availability.reachable();
      throw error;
    }
  }

  /** Runs `call` with `options` as the driver takes them ({@link timed}), guarded. */
  function limited<O extends CallLimits, T>(
    options: O | undefined,
    call: (sent: Omit<O, 'maxExamined'> & { maxTimeMS: number }) => Promise<T>,
  ): Promise<T> {
    const sent = timed(options);
    return guard(sent.maxTimeMS, () => call(sent));
  }

  /** A call that takes no time limit (inserts, index management), guarded. */
  const plain = <T>(call: () => Promise<T>) => guard(settings.maxTimeMS, call);

  const collections = new Map<string, StoreCollection>();

  function wrap(name: string): StoreCollection {
    const raw = db.collection(name);
    return {
      collectionName: raw.collectionName,
      find: (filter: Document, options: FindOptions = {}) => ({
        toArray: () => limited(options, (sent) => raw.find(send(filter), sent).toArray()),
      }),
      findOne: (filter, options) => limited(options, (sent) => raw.findOne(send(filter), sent)),
      countDocuments: (filter, options) => limited(options, (sent) => raw.countDocuments(send(filter), sent)),
      insertOne: (doc) => plain(() => raw.insertOne(send(doc))),
      insertMany: (docs) => plain(() => raw.insertMany(docs.map((doc) => send(doc)))),
      findOneAndReplace: (filter, replacement, options: ModifyOptions) =>
        limited(options, (sent) => raw.findOneAndReplace(send(filter), send(replacement), sent)),
      findOneAndUpdate: (filter, update, options: ModifyOptions) =>
        limited(options, (sent) => raw.findOneAndUpdate(send(filter), send(update), sent)),
      updateOne: (filter, update, options) =>
        limited(options, (sent) => raw.updateOne(send(filter), send(update), sent)),
      updateMany: (filter, update, options) =>
        limited(options, (sent) => raw.updateMany(send(filter), send(update), sent)),
      deleteOne: (filter, options) => limited(options, (sent) => raw.deleteOne(send(filter), sent)),
      deleteMany: (filter, options) => limited(options, (sent) => raw.deleteMany(send(filter), sent)),
      createIndex: (spec: IndexSpec, options?: IndexOptions) => plain(() => raw.createIndex(spec, options)),
      listIndexes: () => ({ toArray: () => plain(() => raw.listIndexes().toArray()) }),
      dropIndex: (indexName) => plain(() => raw.dropIndex(indexName)),
    };
  }

  return {
    collection(name) {
      let collection = collections.get(name);
      if (collection === undefined) {
        collection = wrap(name);
        collections.set(name, collection);
      }
      return collection;
    },
  };
}
