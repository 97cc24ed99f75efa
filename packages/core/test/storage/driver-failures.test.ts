/**
 * How the store behaves on a driver `Db` that cannot be reached, or a query past its time limit:
 * 503 with `Retry-After` while down, one log line per change, recovery without a restart,
 * `maxTimeMS` on every query. The driver is stood in for by a `Db`-shaped object over the
 * embedded engine whose calls fail the way the driver's do (by error name and server code);
 * the real driver runs in the driver-path tier.
 */
import type { Document, StoreCollection } from '@store/common';
import { createEmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStoreHandler } from '../../src/handler/handler';
import type { StoreRequest } from '../../src/model/http';

const get = (path: string): StoreRequest => ({ method: 'GET', path, rawQuery: '', headers: {} });

/** The error the driver throws when no server answers within serverSelectionTimeoutMS. */
const unreachable = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { name: 'MongoServerSelectionError' });

/** A driver-shaped `Db` over the embedded engine, with a switch that makes every call fail. */
function fakeDriverDb() {
  const inner = createEmbeddedDb();
  const state = { down: false, failWith: undefined as (() => Error) | undefined, calls: [] as Document[] };
  const collection = (name: string): StoreCollection =>
    new Proxy(inner.collection(name), {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          state.calls.push({ method: key, args });
          if (state.down) throw unreachable();
          if (state.failWith !== undefined) throw state.failWith();
          return value.apply(target, args);
        };
      },
    });
  const db = {
    databaseName: 'shop',
    client: { options: {} },
    command: async () => ({ ok: 1 }),
    collection,
  };
  return { db, state };
}

function logger() {
  return { error: vi.fn(), warn: vi.fn() };
}

async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a driver Db that cannot be reached', () => {
  const handlers: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(handlers.splice(0).map((handler) => handler.close()));
  });

  it('answers 503 database_unavailable with Retry-After until it is up, then serves without a restart', async () => {
    const { db, state } = fakeDriverDb();
    state.down = true;
    const log = logger();
    const handle = createStoreHandler({
      db: db as never,
      logger: log,
      resources: { posts: { search: ['title'] } },
    });
    handlers.push(handle);
    const refused = await handle(get('/posts'));
    expect(refused).toMatchObject({
      status: 503,
      headers: { 'retry-after': expect.stringMatching(/^\d+$/) },
    });
    expect(JSON.parse(String(refused?.body))).toMatchObject({ code: 'database_unavailable', status: 503 });
    state.down = false;
    await eventually(async () => (await handle(get('/posts')))?.status === 200);
    await handle.ready;
    const lines = [...log.error.mock.calls, ...log.warn.mock.calls].map(([line]) => String(line));
    expect(lines.filter((line) => line.includes('cannot be reached'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('reachable again'))).toHaveLength(1);
  });

  it('answers 503 at once when the database goes away after start-up, and logs each change once', async () => {
    const { db, state } = fakeDriverDb();
    const log = logger();
    const handle = createStoreHandler({ db: db as never, logger: log });
    handlers.push(handle);
    await handle.ready;
    state.down = true;
    for (let i = 0; i < 3; i += 1) {
      expect(await handle(get('/posts'))).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
    }
    state.down = false;
    expect(await handle(get('/posts'))).toMatchObject({ status: 200 });
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(String(log.error.mock.calls[0]?.[0])).toContain('cannot be reached');
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  it('sends maxTimeMS with every query, and answers 503 query_timeout when the server stops one', async () => {
    const { db, state } = fakeDriverDb();
    const handle = createStoreHandler({ db: db as never, logger: logger(), maxTimeMS: 1234 });
    handlers.push(handle);
    await handle.ready;
    state.calls.length = 0;
    await handle(get('/posts'));
    await handle(get('/posts/1'));
    await handle({ ...get('/posts'), rawQuery: '$count=1' });
    const queries = state.calls.filter(({ method }) =>
      ['find', 'findOne', 'countDocuments'].includes(String(method)),
    );
    expect(queries.length).toBeGreaterThanOrEqual(3);
    for (const { args } of queries) {
      expect((args as unknown[]).at(-1)).toMatchObject({ maxTimeMS: 1234 });
    }
    state.failWith = () =>
      Object.assign(new Error('operation exceeded time limit'), { name: 'MongoServerError', code: 50 });
    const timedOut = await handle(get('/posts'));
    expect(timedOut?.status).toBe(503);
    expect(JSON.parse(String(timedOut?.body))).toMatchObject({ code: 'query_timeout' });
  });

  it('refuses a maxTimeMS that is not a positive integer', () => {
    expect(() => createStoreHandler({ maxTimeMS: 0 })).toThrow(/"maxTimeMS"/);
  });
});
