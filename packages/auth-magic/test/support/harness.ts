import type { EngineUnderTest } from '@store/test-kit';
import type { AuthDb, AuthDocument, AuthOptions } from '../../src/index';
import { createTestAuth, type TestAuth } from '../../src/testing';

/** Collections whose contents "nothing else changed" assertions compare. */
const WATCHED = ['svc-magic-links', 'svc-magic-codes', 'users', 'svc-sessions'] as const;

/** The next full hour: fixed send windows (minute, hour) start exactly there. */
function nextHour(): number {
  const hour = 3_600_000;
  return Date.now() - (Date.now() % hour) + hour;
}

/** What {@link harness} returns: the test kit's deps and mailer, plus the database and clock. */
export interface Harness extends TestAuth {
  db: AuthDb;
  /** Moves the flows' clock forward. */
  advance(ms: number): void;
  all(name: string): Promise<AuthDocument[]>;
  /** Every document of the watched collections, to compare before and after a refused call. */
  snapshot(): Promise<Record<string, AuthDocument[]>>;
}

/**
 * Flow deps on a fresh database of `engine`, with a frozen clock the test moves forward. It
 * starts at the next full hour, so no send window ends mid-test and the embedded engine's
 * real-time TTL sweep never removes what the flows still see as live. Send limits are generous
 * unless the test sets its own.
 */
export async function harness(engine: EngineUnderTest, options: AuthOptions = {}): Promise<Harness> {
  const db = await engine.createDb();
  const start = nextHour();
  let offset = 0;
  const auth = createTestAuth(db, {
    clock: () => new Date(start + offset),
    rateLimit: { perAddress: { max: 1000 }, perIp: { max: 1000 } },
    ...options,
  });
  const all = (name: string) =>
    db
      .collection(name)
      .find({}, { sort: { _id: 1 } })
      .toArray();
  return {
    ...auth,
    db,
    /** Moves the flows' clock forward. */
    advance(ms: number) {
      offset += ms;
    },
    all,
    /** Every document of the watched collections, to compare before and after a refused call. */
    async snapshot(): Promise<Record<string, AuthDocument[]>> {
      const entries = await Promise.all(WATCHED.map(async (name) => [name, await all(name)] as const));
      return Object.fromEntries(entries);
    },
  };
}

/** Asserts a promise rejects with this status and code, returning the error. */
export async function refusal(
  promise: Promise<unknown>,
): Promise<{ status: number; code: string; headers?: Record<string, string> }> {
  try {
    await promise;
  } catch (error) {
    return error as { status: number; code: string };
  }
  throw new Error('expected a refusal, got success');
}

/** One call a {@link countedDb} saw: the collection, the method, the keys of its filter. */
interface CountedCall {
  collection: string;
  method: string;
  keys: string[];
}

/** `db`, recording every collection method called on it (to count a flow's queries). */
export function countedDb(db: AuthDb): { db: AuthDb; calls: CountedCall[] } {
  const calls: CountedCall[] = [];
  const counted = {
    collection(name: string) {
      const collection = db.collection(name);
      return new Proxy(collection, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            const filter = args[0];
            const keys = typeof filter === 'object' && filter !== null ? Object.keys(filter) : [];
            calls.push({ collection: name, method: String(property), keys });
            return value.apply(target, args);
          };
        },
      });
    },
  } as unknown as AuthDb;
  return { db: counted, calls };
}
