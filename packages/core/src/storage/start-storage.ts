/**
 * Starts the configured storage and keeps the store answering while it cannot: opens it,
 * reconciles the indexes core and the plugins own, starts the plugins. On a MongoDB that cannot
 * be reached (or refuses anything at start-up), the start is retried with backoff; meanwhile
 * requests answer 503 `database_unavailable` with `Retry-After`, and the first success serves
 * them without a restart. A bad option fails at once; the embedded engine starts once.
 */
import { ensureIndexes, isOptionError, type StoreDb } from '@store/common';
import type { ResolvedStoreOptions } from '../model/options';
import type { PluginInstance, PluginRuntime, PluginStoreSeams } from '../model/plugin';
import type { RealtimeSeam } from '../model/realtime-seam';
import { Availability, driverDb, isDriverDb, unavailableError } from './driver-db';
import { openStorage } from './open-storage';
import { storeIndexes } from './store-indexes';

/** A plugin once storage is open: its resolved side and its request-time side. */
interface StartedPlugin {
  readonly instance: PluginInstance;
  readonly runtime: PluginRuntime;
}

/** Open storage, as the handler holds it. */
export interface StartedStorage {
  readonly db: StoreDb;
  /** The active plugins, started (indexes ensured), in the order of `plugins`. */
  readonly plugins: readonly StartedPlugin[];
}

/** The storage of one store, from the first attempt to `close()`. */
export interface StorageHandle {
  /** Resolves once storage is started (it waits while the database cannot be reached); rejects on a bad option. */
  readonly ready: Promise<void>;
  /** The started storage; while a retry is pending, a 503 `database_unavailable`. */
  current(): StartedStorage | Promise<StartedStorage>;
  close(): Promise<void>;
}

/** First wait between attempts, and the longest (milliseconds). */
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 30_000;

async function startOnce(
  db: StoreDb,
  options: ResolvedStoreOptions,
  seams: PluginStoreSeams,
): Promise<StartedStorage> {
  const [, plugins] = await Promise.all([
    ensureIndexes(db, storeIndexes(options), options.logger),
    Promise.all(
      options.plugins.map(async ({ instance }) => ({ instance, runtime: await instance.start(db, seams) })),
    ),
  ]);
  return { db, plugins };
}

/** A wait that `wake()` ends early; its timer never keeps the process alive. */
function pause(ms: number): { done: Promise<void>; wake(): void } {
  let wake: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { done, wake };
}

/** Starts storage as the module comment says; with `realtime`, every write goes through its seam. */
export function startStorage(options: ResolvedStoreOptions, realtime?: RealtimeSeam): StorageHandle {
  const availability = new Availability(options.logger);
  let started: StartedStorage | undefined;
  /** When the next attempt runs, while one failed and a retry is pending. */
  let retryAt: number | undefined;
  let closed = false;
  let waiting: ReturnType<typeof pause> | undefined;
  /** Settles when the first attempt did (either way), so waiting requests can be answered. */
  let firstAttemptSettled: () => void = () => undefined;
  const firstAttempt = new Promise<void>((resolve) => {
    firstAttemptSettled = resolve;
  });

  const opened = openStorage(options.db, process.env, options.data);
  // Sessions a plugin ended end their event streams (none without `realtime`).
  const seams: PluginStoreSeams = { sessionsEnded: (ended) => realtime?.sessionsEnded(ended) };

  async function run(): Promise<StartedStorage> {
    const storage = await opened;
    const publishing = (db: StoreDb) => realtime?.publishing(db) ?? db;
    if (!isDriverDb(storage.db)) {
      try {
        return await startOnce(publishing(storage.db), options, seams);
      } catch (error) {
        await storage.close().catch(() => undefined);
        throw error;
      }
    }
    const db = publishing(driverDb(storage.db, { maxTimeMS: options.maxTimeMS, availability }));
    realtime?.watch(storage.db);
    let delay = FIRST_RETRY_MS;
    let lastReason: string | undefined;
    for (;;) {
      try {
        return await startOnce(db, options, seams);
      } catch (error) {
        if (closed || isOptionError(error)) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        if (reason !== lastReason && availability.up) {
          options.logger.error(`[@store/core] storage could not start (${reason}); retrying`, error);
        }
        lastReason = reason;
        retryAt = Date.now() + delay;
        firstAttemptSettled();
        waiting = pause(delay);
        await waiting.done;
        if (closed) throw error;
        delay = Math.min(delay * 2, LONGEST_RETRY_MS);
      }
    }
  }

  const running = run();
  const ready = running.then((value) => {
    started = value;
    retryAt = undefined;
    firstAttemptSettled();
  });
  ready.catch(() => firstAttemptSettled());

  async function current(): Promise<StartedStorage> {
    await firstAttempt;
    if (started !== undefined) return started;
    if (retryAt !== undefined) throw unavailableError((retryAt - Date.now()) / 1000);
    return running;
  }

  let closing: Promise<void> | undefined;
  return {
    ready,
    current: () => started ?? current(),
    close() {
      closing ??= (async () => {
        closed = true;
        availability.stop();
        waiting?.wake();
        const storage = await opened.catch(() => undefined);
        if (started === undefined || !isDriverDb(storage?.db)) await running.catch(() => undefined);
        await storage?.close();
      })();
      return closing;
    },
  };
}
