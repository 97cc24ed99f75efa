/**
 * The embedded database: named collections created on first use, in memory, and with
 * `{ dir }` also on disk (a journal synced before each write is acknowledged, compacted into a
 * snapshot in the background; see durable/data-directory.ts).
 */
import type { StoreDb } from '@store/common';
import { EmbeddedCollection, type EngineState } from './collection';
import { openDataDirectory, startJournal, writeSnapshot } from './durable/data-directory';
import type { Change } from './durable/records';
import { encodeRecord } from './durable/records';

const embeddedDbs = new WeakSet<object>();

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
   * Stops the database: later operations fail (code 11600, like a server shutting down). With
   * `dir`, resolves once every write is on disk and a compaction under way is finished, and
   * releases the directory's lock.
   */
  close(): Promise<void>;
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
   * Where a recovered journal is reported (a write cut short by a crash, set aside).
   * @default console.warn
   */
  warn?: (message: string) => void;
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

function openDurable(
  options: EmbeddedDbOptions,
  state: EngineState,
  collections: Map<string, EmbeddedCollection>,
  collection: (name: string) => EmbeddedCollection,
): { close(): Promise<void> } {
  const dir = options.dir as string;
  const compactAfter = options.compactAfterBytes ?? DEFAULT_COMPACT_AFTER_BYTES;
  const opened = openDataDirectory(dir, options.warn ?? console.warn);
  for (const [name, image] of opened.collections) {
    collection(name).restore(image.docs.values(), image.indexes.values());
  }
  const { journal } = opened;
  let generation = opened.generation;
  let snapshotBytes = opened.snapshotBytes;
  let compaction: Promise<void> | undefined;
  let released = false;

  const fail = (error: Error) => {
    state.closed = true;
    state.failure = `the embedded database stopped: ${error.message}`;
  };
  const compact = async () => {
    generation += 1;
    startJournal(dir, journal, generation);
    const image = [...collections].map(([name, found]): [string, ReturnType<EmbeddedCollection['image']>] => [
      name,
      found.image(),
    ]);
    try {
      snapshotBytes = await writeSnapshot(dir, generation, image);
      await journal.closeOlder();
    } catch (error) {
      // The journals still hold everything: the next compaction tries again.
      (options.warn ?? console.warn)(`[@store/embedded] compaction failed: ${(error as Error).message}`);
    }
  };
  state.journal = {
    record(changes: Change[]) {
      const written = journal.append(encodeRecord(changes));
      written.catch(fail);
      if (!compaction && journal.size > Math.max(compactAfter, snapshotBytes)) {
        compaction = compact().finally(() => {
          compaction = undefined;
        });
      }
      return written;
    },
  };
  return {
    async close() {
      if (released) return;
      released = true;
      try {
        while (compaction) await compaction;
        // A clean shutdown leaves a snapshot, so the next open reads packed records only.
        if (journal.size > COMPACT_ON_CLOSE_BYTES) await compact();
        await journal.close();
      } finally {
        opened.unlock();
      }
    },
  };
}
