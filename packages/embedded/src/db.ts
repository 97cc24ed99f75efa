/**
 * The embedded database: named collections created on first use, in memory, and with
 * `{ dir }` also on disk (a journal synced before each write is acknowledged, compacted into a
 * snapshot in the background; see durable/data-directory.ts).
 */
import type { Document, StoreDb } from '@store/common';
import { type AggregateOptions, runPipeline } from './aggregate';
import { EMPTY, EmbeddedCollection, type EngineState, PIPELINE_SOURCE, TAKE_OVER } from './collection';
import { openDataDirectory, startJournal, writeSnapshot } from './durable/data-directory';
import { type FileSystem, nodeFileSystem } from './durable/file-system';
import { idOrderPlaces } from './durable/id-order';
import type { Change } from './durable/records';
import { encodeRecord } from './durable/records';
import { EmbeddedDbError } from './errors';
import { checkOptions, refuseChangeStreams, refuseSessions } from './known-options';
import { Work } from './work';

const embeddedDbs = new WeakSet<object>();

/**
 * Collections named with this prefix are temporary: an import fills them, then renames them into
 * place in one step ({@link EmbeddedDb.renameCollections}). Opening a data directory drops any
 * that a crash left behind. No resource name can begin with it (it holds dots).
 */
export const TEMPORARY_COLLECTION_PREFIX = 'tmp.import.';

/** True for a database made by {@link createEmbeddedDb}. */
export function isEmbeddedDb(value: unknown): value is EmbeddedDb {
  return typeof value === 'object' && value !== null && embeddedDbs.has(value);
}

/** A {@link StoreDb} kept in memory by the embedded engine (and on disk with `dir`). */
export interface EmbeddedDb extends StoreDb {
  collection(name: string): EmbeddedCollection;
  /** The collections that hold documents or indexes, as the driver's `listCollections` names them. */
  listCollections(): { toArray(): Promise<Array<{ name: string }>> };
  /**
   * Renames collections all at once: each `to` takes the documents and indexes of its `from`
   * (what `to` held is dropped, as the driver's `rename` with `dropTarget` does) and `from` is
   * left empty. With `dir` the renames are one journal record: after a crash either all of them
   * happened or none did. Throws (code 73) on a `from` equal to its `to`, or a name used twice.
   */
  renameCollections(renames: ReadonlyArray<readonly [from: string, to: string]>): Promise<void>;
  /** Drops a collection, documents and indexes (one journal record); answers whether it existed. */
  dropCollection(name: string): Promise<boolean>;
  /**
   * Stops the database: later operations fail (code 11600, like a server shutting down). With
   * `dir`, resolves once every write is on disk and a compaction under way is finished, and
   * releases the directory's lock.
   */
  close(): Promise<void>;
  /**
   * Runs a database-level aggregation pipeline: `$documents` first, then the stages a
   * collection's pipeline runs (`$lookup` reads the database's collections). `$currentOp`,
   * `$listLocalSessions` and the like are refused by name (NotImplemented, 238).
   */
  aggregate(pipeline: Document[], options?: AggregateOptions): { toArray(): Promise<Document[]> };
  /** Change streams: refused (NotImplemented, 238), the engine has none. */
  watch(): never;
  /** Sessions and transactions: refused (NotImplemented, 238), the engine has none. */
  startSession(): never;
}

/** Options of {@link createEmbeddedDb}. */
export interface EmbeddedDbOptions {
  /**
   * A directory that keeps the data across restarts (created if missing). Every write resolves
   * only once it is on disk; one process at a time may open a directory.
   * @default undefined (in memory only: the data is lost when the process exits)
   */
  dir?: string;
  /**
   * The journal is compacted into a snapshot once it is larger than this and than the last
   * snapshot (bytes).
   * @default 4194304 (4 MiB)
   */
  compactAfterBytes?: number;
  /**
   * Where the data directory's events are reported: a write cut short by a crash set aside, a
   * repair, a directory other users can reach, a lock found taken by another process.
   * @default console.warn
   */
  warn?: (message: string) => void;
  /**
   * The file-system calls the journal and compaction write through: for tests, which make them
   * fail as a full disk does.
   * @default node:fs
   */
  fileSystem?: FileSystem;
  /**
   * Opens a directory whose journal is damaged with whole records after the damage (which is
   * refused otherwise): the damaged bytes are set aside in a file beside the journal, every
   * whole record is kept, and `warn` reports what was done (`store repair` does this).
   * @default false
   */
  repair?: boolean;
}

const DEFAULT_COMPACT_AFTER_BYTES = 4 * 1024 * 1024;
/** A journal larger than this is compacted on `close()`. */
const COMPACT_ON_CLOSE_BYTES = 64 * 1024;

/**
 * Creates a database implementing the storage interface with MongoDB's semantics (query,
 * update and projection operators through mingo, unique/text/2dsphere/TTL indexes, duplicate
 * key errors with code 11000): in memory, or kept in `options.dir`. Opening a directory reads
 * it at once and throws an `EmbeddedDataError` when it is locked by another process or damaged.
 */
export function createEmbeddedDb(options: EmbeddedDbOptions = {}): EmbeddedDb {
  const state: EngineState = { closed: false };
  const collections = new Map<string, EmbeddedCollection>();
  const collection = (name: string): EmbeddedCollection => {
    let found = collections.get(name);
    if (!found) {
      found = new EmbeddedCollection(name, state);
      if (!state.closed) collections.set(name, found);
    }
    return found;
  };
  state.collection = collection;
  const durable =
    options.dir === undefined ? undefined : openDurable(options, state, collections, collection);
  const db: EmbeddedDb = {
    collection,
    listCollections: () => ({
      toArray: async () =>
        [...collections]
          .filter(([, found]) => found.exists())
          .map(([name]) => ({ name }))
          .sort((a, b) => (a.name < b.name ? -1 : 1)),
    }),
    async renameCollections(renames) {
      checkUsable(state);
      checkRenames(renames);
      state.journal?.ready();
      for (const [from, to] of renames) collection(to)[TAKE_OVER](collection(from));
      await state.journal?.record(renames.map(([from, to]) => ({ c: from, renameTo: to })));
    },
    async dropCollection(name) {
      checkUsable(state);
      state.journal?.ready();
      const found = collection(name);
      const existed = found.exists();
      found[EMPTY]();
      await state.journal?.record([{ c: name, drop: true }]);
      return existed;
    },
    aggregate: (pipeline, aggregateOptions = {}) => ({
      toArray: async () => {
        checkOptions('aggregate', aggregateOptions);
        checkUsable(state);
        const input = {
          source: undefined,
          collection: (name: string) => collection(name)[PIPELINE_SOURCE](),
        };
        const work = new Work(aggregateOptions, () => checkUsable(state));
        return runPipeline(pipeline, aggregateOptions, input, work);
      },
    }),
    watch: refuseChangeStreams,
    startSession: refuseSessions,
    async close() {
      if (state.closed && !durable) return;
      state.closed = true;
      await durable?.close();
      collections.clear();
    },
  };
  embeddedDbs.add(db);
  return db;
}

function checkUsable(state: EngineState): void {
  if (state.closed) {
    throw new EmbeddedDbError('InterruptedAtShutdown', state.failure ?? 'the embedded database is closed');
  }
}

function checkRenames(renames: ReadonlyArray<readonly [from: string, to: string]>): void {
  const names = renames.flat();
  const problem = renames.some(([from, to]) => from === to)
    ? 'a collection cannot be renamed to itself'
    : new Set(names).size < names.length
      ? 'a collection is named in two renames'
      : names.find(
            (name) => typeof name !== 'string' || name === '' || name.includes('$') || name.includes('\0'),
          )
        ? 'a collection name must be a non-empty string without $ or NUL'
        : undefined;
  if (problem) throw new EmbeddedDbError('InvalidNamespace', problem);
}

function openDurable(
  options: EmbeddedDbOptions,
  state: EngineState,
  collections: Map<string, EmbeddedCollection>,
  collection: (name: string) => EmbeddedCollection,
): { close(): Promise<void> } {
  const dir = options.dir as string;
  const compactAfter = options.compactAfterBytes ?? DEFAULT_COMPACT_AFTER_BYTES;
  const warn = options.warn ?? console.warn;
  const fs = options.fileSystem ?? nodeFileSystem;
  let lockLost = false;
  const opened = openDataDirectory(dir, warn, fs, {
    repair: options.repair ?? false,
    lost: (message) => {
      // Another process writes the directory now: this one stops, so that they never both do.
      lockLost = true;
      warn(`[@store/embedded] ${message}`);
      state.closed = true;
      state.failure = `the embedded database stopped: ${message}`;
    },
  });
  // A collection an import was filling when the process stopped is dropped.
  const leftovers: Change[] = [];
  for (const [name, image] of opened.collections) {
    if (name.startsWith(TEMPORARY_COLLECTION_PREFIX)) leftovers.push({ c: name, drop: true });
    else
      collection(name).restore(
        image.docs,
        image.indexes.values(),
        image.idOrder && idOrderPlaces(image.idOrder, image.docs.size),
      );
  }
  const { journal } = opened;
  let generation = opened.generation;
  let snapshotBytes = opened.snapshotBytes;
  let compaction: Promise<void> | undefined;
  let released = false;

  // A write the journal refused for a full disk (or no file descriptor) leaves the database
  // serving, reads and all: the journal tries the write again by itself. Any other failure
  // stops it.
  const fail = () => {
    if (!journal.failure || state.closed) return;
    state.closed = true;
    state.failure = `the embedded database stopped: ${journal.failure.message}`;
  };
  const compact = async () => {
    // The switch is queued behind every record appended so far, and the snapshot is the state
    // of this instant: what those records hold, and nothing of the later ones.
    generation += 1;
    const switched = startJournal(dir, journal, generation);
    const image = [...collections].map(([name, found]): [string, ReturnType<EmbeddedCollection['image']>] => [
      name,
      found.image(),
    ]);
    try {
      await switched;
      snapshotBytes = await writeSnapshot(dir, generation, image, fs);
      await journal.closeOlder();
    } catch (error) {
      // The journals still hold everything: a refused switch is made with a later write, and
      // the next compaction tries again.
      warn(`[@store/embedded] compaction failed: ${(error as Error).message}`);
    }
  };
  state.journal = {
    ready: () => journal.ready(),
    record(changes: Change[]) {
      const written = journal.append(encodeRecord(changes));
      written.catch(fail);
      if (!compaction && !journal.switching && journal.size > Math.max(compactAfter, snapshotBytes)) {
        compaction = compact().finally(() => {
          compaction = undefined;
        });
      }
      return written;
    },
  };
  if (leftovers.length > 0) state.journal.record(leftovers).catch(() => undefined);
  return {
    async close() {
      if (released) return;
      released = true;
      try {
        while (compaction) await compaction;
        // A clean shutdown leaves a snapshot, so the next open reads packed records only.
        if (journal.size > COMPACT_ON_CLOSE_BYTES && !journal.switching && !lockLost) await compact();
        const unwritten = await journal.close();
        if (unwritten > 0) {
          warn(
            `[@store/embedded] ${unwritten} writes refused for a full disk were never saved to ${dir}: ` +
              'the directory holds every acknowledged write and none of them',
          );
        }
      } finally {
        opened.unlock();
      }
    },
  };
}
