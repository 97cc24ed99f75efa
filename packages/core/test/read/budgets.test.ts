/**
 * Per-request budgets, the cases that run once rather than on every adapter: the options every
 * database call of a request carries (on the embedded path and on the driver path), how the
 * engines' limit errors are answered, the bytes budget on a 439 MB `$populate` answer, and
 * ordinary lists and counts over 100,000 documents under the default budgets. The engine is
 * stood in for by a recording `Db` over the embedded engine that can fail as an engine does.
 */
import type { Document, StoreCollection } from '@store/common';
import { createEmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStoreHandler } from '../../src/handler/handler';
import type { StoreConfig } from '../../src/model/config';
import type { HookContext } from '../../src/model/hooks';
import type { StoreHandler } from '../../src/model/http';

/** Operations that scan, and take `maxExamined`; the others (single-document writes) take the time limit only. */
const SCANS = new Set(['find', 'findWithCount', 'findOne', 'countDocuments', 'updateMany', 'deleteMany']);

/** The position of the options argument of each operation a budget applies to. */
const OPTIONS_AT: Record<string, number> = {
  find: 1,
  findWithCount: 1,
  findOne: 1,
  countDocuments: 1,
  findOneAndUpdate: 2,
  findOneAndReplace: 2,
  updateOne: 2,
  updateMany: 2,
  deleteOne: 1,
  deleteMany: 1,
};

interface Call {
  method: string;
  collection: string;
  options: Document | undefined;
}

/** A `Db` over the embedded engine recording each budgeted operation, and failing on demand. */
function recordingDb(shape: Document = {}) {
  const inner = createEmbeddedDb();
  const state = { calls: [] as Call[], failWith: undefined as (() => Error) | undefined };
  const collection = (name: string): StoreCollection =>
    new Proxy(inner.collection(name), {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        const at = typeof key === 'string' ? OPTIONS_AT[key] : undefined;
        if (at === undefined) return value.bind(target);
        return (...args: unknown[]) => {
          state.calls.push({ method: key as string, collection: name, options: args[at] as Document });
          if (state.failWith !== undefined) throw state.failWith();
          return value.apply(target, args);
        };
      },
    });
  return { db: { ...shape, collection }, inner, state };
}

/** The shape the store recognizes as a driver `Db`. */
const DRIVER_SHAPE = { databaseName: 'shop', client: { options: {} }, command: async () => ({ ok: 1 }) };

interface Answer {
  status: number | undefined;
  json: unknown;
}

const handlers: StoreHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
  vi.restoreAllMocks();
});

function serve(config: StoreConfig) {
  const handle = createStoreHandler({ logger: { error: () => undefined, warn: () => undefined }, ...config });
  handlers.push(handle);
  return async (method: string, path: string, rawQuery = '', body?: unknown): Promise<Answer> => {
    const response = await handle({
      method,
      path,
      rawQuery,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = response?.body;
    return { status: response?.status, json: text === undefined ? undefined : JSON.parse(text) };
  };
}

async function seedBlog(db: { collection(name: string): StoreCollection }) {
  await db.collection('posts').insertMany([
    { _id: 1, title: 'a', author_id: 'u1' },
    { _id: 2, title: 'b', author_id: 'u1' },
  ]);
  await db.collection('comments').insertMany([
    { _id: 'c1', post_id: 1, text: 'x' },
    { _id: 'c2', post_id: 2, text: 'y' },
  ]);
  await db.collection('authors').insertMany([{ _id: 'u1', name: 'Ann' }]);
}

/** Requests that reach the database in every way a request can, and the status each answers. */
const REQUESTS: [string, string, string, unknown, number][] = [
  ['GET', '/posts', 'title=a', undefined, 200],
  ['GET', '/posts', '$count=1', undefined, 200],
  ['GET', '/posts', '$total=1', undefined, 200],
  ['GET', '/posts/1', '', undefined, 200],
  ['GET', '/posts/1/comments', '', undefined, 200],
  ['GET', '/posts', '$populate=comments', undefined, 200],
  ['GET', '/comments', '$fill=posts', undefined, 200],
  ['PATCH', '/posts', 'title=a', { seen: true }, 200],
  ['DELETE', '/comments', 'text=y', undefined, 200],
  ['PATCH', '/posts/2', '', { seen: true }, 200],
  ['DELETE', '/posts/2', '', undefined, 204],
];

describe('the budgets every database call of a request carries', () => {
  it.each(REQUESTS)(
    '%s %s?%s passes maxTimeMS on each operation, and maxExamined on each scan',
    async (...request) => {
      const [method, path, query, body, status] = request;
      const { db, state } = recordingDb();
      const send = serve({
        db: db as never,
        resources: { authors: {}, posts: { access: () => ({ title: { $ne: 'hidden' } }) } },
        budgets: { examined: 12_345, timeMS: 2345 },
      });
      await seedBlog(db);
      state.calls.length = 0;
      expect((await send(method, path, query, body)).status).toBe(status);
      expect(state.calls.length).toBeGreaterThan(0);
      for (const call of state.calls) {
        const expected = SCANS.has(call.method)
          ? { maxTimeMS: 2345, maxExamined: 12_345 }
          : { maxTimeMS: 2345 };
        expect(call.options, `${call.method} on ${call.collection}`).toMatchObject(expected);
      }
    },
  );

  it('calls each budget function once per request, with its context, and passes what it gives', async () => {
    const seen: HookContext[] = [];
    const examined = (ctx: HookContext) => {
      seen.push(ctx);
      return ctx.flags.wide === 'yes' ? 500_000 : 50;
    };
    const { db, state } = recordingDb();
    const send = serve({ db: db as never, budgets: { examined } });
    await seedBlog(db);
    state.calls.length = 0;
    expect((await send('GET', '/posts', '$populate=comments&$total=1&$$wide=yes')).status).toBe(200);
    expect(seen.map((ctx) => [ctx.method, ctx.resource.name])).toEqual([['GET', 'posts']]);
    expect(new Set(state.calls.map((call) => call.options?.maxExamined))).toEqual(new Set([500_000]));
    state.calls.length = 0;
    expect((await send('GET', '/posts/1/comments')).status).toBe(200);
    expect(new Set(state.calls.map((call) => call.options?.maxExamined))).toEqual(new Set([50]));
    expect(seen).toHaveLength(2);
  });

  it('answers 500 internal for a budget function giving no positive integer, naming it only in the log', async () => {
    const error = vi.fn();
    const { db } = recordingDb();
    const handle = createStoreHandler({
      db: db as never,
      logger: { error, warn: () => undefined },
      budgets: { answerBytes: () => -1 },
    });
    handlers.push(handle);
    const response = await handle({ method: 'GET', path: '/posts', rawQuery: '', headers: {} });
    expect(response?.status).toBe(500);
    expect(String(response?.body)).not.toContain('budgets');
    expect(String(error.mock.calls.flat().map(String))).toContain('budgets.answerBytes must return');
  });
});

/** An error as the engines raise it for an operation past its `maxTimeMS` (MongoDB's code 50). */
const timeExpired = () =>
  Object.assign(new Error('operation exceeded time limit'), { code: 50, codeName: 'MaxTimeMSExpired' });

/** An error as the embedded engine raises it for an operation past its `maxExamined`. */
const examinedExceeded = () =>
  Object.assign(new Error('examined more documents than allowed'), {
    name: 'EmbeddedDbError',
    code: 90_001,
    codeName: 'ExceededExaminedLimit',
  });

describe("the engines' limit errors", () => {
  it('answers an operation past its time budget with 503 query_timeout naming the request budget', async () => {
    const { db, state } = recordingDb();
    const send = serve({ db: db as never, budgets: { timeMS: () => 777 } });
    await seedBlog(db);
    state.failWith = timeExpired;
    const answer = await send('GET', '/posts');
    expect(answer).toMatchObject({
      status: 503,
      json: { code: 'query_timeout', budget: 'timeMS', limit: 777 },
    });
    expect((answer.json as Document).detail).toBe(
      'The query ran longer than 777 ms (budgets.timeMS); narrow it and try again.',
    );
  });

  it('answers an operation past its examined budget with 422 budget_exceeded naming budgets.examined', async () => {
    const { db, state } = recordingDb();
    const send = serve({ db: db as never, budgets: { examined: 40 } });
    await seedBlog(db);
    state.failWith = examinedExceeded;
    for (const [method, path, query] of [
      ['GET', '/posts', 'title:contains=a'],
      ['GET', '/posts/1', '$populate=comments'],
      ['PATCH', '/posts', 'title=a'],
    ] as const) {
      const answer = await send(method, path, query, method === 'PATCH' ? { seen: true } : undefined);
      expect(answer).toMatchObject({
        status: 422,
        json: { code: 'budget_exceeded', budget: 'examined', limit: 40 },
      });
      expect((answer.json as Document).detail).toMatch(/at most 40 documents .*budgets\.examined/);
    }
  });
});

describe('budgets on the driver path', () => {
  it("sends the request's maxTimeMS, never maxExamined, and answers code 50 with the request's limit", async () => {
    const { db, state } = recordingDb(DRIVER_SHAPE);
    const timeMS = (ctx: HookContext) => (ctx.flags.slow === 'yes' ? 9000 : 1500);
    const send = serve({ db: db as never, budgets: { timeMS, examined: 10 } });
    await seedBlog(db);
    state.calls.length = 0;
    expect((await send('GET', '/posts', '$total=1&$populate=comments')).status).toBe(200);
    expect((await send('PATCH', '/posts', 'title=a&$$slow=yes', { seen: true })).status).toBe(200);
    expect(state.calls.length).toBeGreaterThan(0);
    for (const call of state.calls) {
      expect(call.options, call.method).toHaveProperty('maxTimeMS');
      expect(call.options, call.method).not.toHaveProperty('maxExamined');
    }
    expect(new Set(state.calls.map((call) => call.options?.maxTimeMS))).toEqual(new Set([1500, 9000]));
    state.failWith = timeExpired;
    const answer = await send('GET', '/posts', '$$slow=yes');
    expect(answer).toMatchObject({ status: 503, json: { code: 'query_timeout', limit: 9000 } });
    expect((answer.json as Document).detail).toContain('9000 ms');
  });

  it('sends the top-level maxTimeMS as the time budget of every request', async () => {
    const { db, state } = recordingDb(DRIVER_SHAPE);
    const send = serve({ db: db as never, maxTimeMS: 1234 });
    await seedBlog(db);
    state.calls.length = 0;
    expect((await send('GET', '/posts', '$count=1')).status).toBe(200);
    expect(state.calls.map((call) => call.options)).toEqual([{ maxTimeMS: 1234 }]);
  });
});

describe('the bytes budget of an answer', () => {
  /** `posts` posts with 10 comments of `size` bytes each (one shared text: the engine's memory stays small). */
  async function population(posts: number, size: number) {
    const db = createEmbeddedDb();
    await db
      .collection('posts')
      .insertMany(Array.from({ length: posts }, (_, i) => ({ _id: i, title: `p${i}` })));
    const text = 'x'.repeat(size);
    const comments: Document[] = [];
    for (let i = 0; i < posts; i++) {
      for (let j = 0; j < 10; j++) comments.push({ _id: i * 10 + j, post_id: i, body: text });
    }
    await db.collection('comments').insertMany(comments);
    return db;
  }

  it('refuses a 439 MB $populate answer with 422 budget_exceeded, building at most its budget', async () => {
    // 1,000 posts with 10 comments of 45 KB each: 439 MB with every comment populated.
    const db = await population(1000, 45_000);
    const send = serve({ db, maxLimit: 1000 });
    const stringify = vi.spyOn(JSON, 'stringify');
    const answer = await send('GET', '/posts', '$limit=1000&$populate=comments');
    const longest = Math.max(...stringify.mock.results.map((result) => String(result.value ?? '').length));
    stringify.mockRestore();
    expect(answer).toMatchObject({
      status: 422,
      json: { code: 'budget_exceeded', budget: 'answerBytes', limit: 16 * 1024 * 1024 },
    });
    expect((answer.json as Document).detail).toContain('budgets.answerBytes');
    // Each piece is at most one post with its ten comments (about 450 kB, written in one call as
    // it holds few documents): never the answer (439 MB), nor a page of it.
    expect(longest).toBeLessThan(500_000);
    const page = await send('GET', '/posts', '$limit=10&$populate=comments');
    expect(page.status).toBe(200);
    expect((page.json as Document[]).map((post) => (post.comments as unknown[]).length)).toEqual(
      Array(10).fill(10),
    );
  });

  it('answers an admin past the anonymous budget when answerBytes is a function of the request', async () => {
    const db = await population(50, 4000);
    const answerBytes = (ctx: HookContext) => (ctx.flags.admin === 'yes' ? 64 * 1024 * 1024 : 1024 * 1024);
    const send = serve({ db, maxLimit: 1000, budgets: { answerBytes } });
    expect((await send('GET', '/posts', '$limit=50&$populate=comments')).status).toBe(422);
    expect((await send('GET', '/posts', '$limit=50&$populate=comments&$$admin=yes')).status).toBe(200);
  });
});

describe('the default budgets over 100,000 documents', () => {
  it('answers a list, a count and $total=1', async () => {
    const db = createEmbeddedDb();
    const items = Array.from({ length: 100_000 }, (_, i) => ({ _id: i, n: i, kind: i % 2 ? 'odd' : 'even' }));
    await db.collection('items').insertMany(items);
    const send = serve({ db });
    const list = await send('GET', '/items', 'n:gt=99990&$sort=-n');
    expect(list.status).toBe(200);
    expect((list.json as Document[]).map((item) => item._id)).toEqual([
      99_999, 99_998, 99_997, 99_996, 99_995, 99_994, 99_993, 99_992, 99_991,
    ]);
    expect(await send('GET', '/items', '$count=1&kind=odd')).toEqual({
      status: 200,
      json: { count: 50_000 },
    });
    const handle = handlers.at(-1) as StoreHandler;
    const total = await handle({
      method: 'GET',
      path: '/items',
      rawQuery: '$total=1&kind=even',
      headers: {},
    });
    expect([total?.status, total?.headers['x-total-count']]).toEqual([200, '50000']);
  });
});
