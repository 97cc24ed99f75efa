import type { StoreDb } from '@store/common';
import { createEmbeddedDb, type EmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it } from 'vitest';
import { createStoreHandler } from '../handler/handler';
import type { StoreConfig } from '../model/config';
import type { StoreHandler, StoreRequest } from '../model/http';
import { DocumentAnswers, KEPT_ANSWER_AT_MOST, KEPT_BYTES_AT_MOST } from './document-answers';

function request(method: string, path: string, extra: Partial<StoreRequest> = {}): StoreRequest {
  return { method, path, rawQuery: '', headers: {}, ...extra };
}

/** `db` whose collections count the reads that reach them (every other call passes through). */
function countingReads(db: StoreDb): { db: StoreDb; reads: () => number } {
  let reads = 0;
  const counted = (collection: object) =>
    new Proxy(collection, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (key === 'findOne' || key === 'find') reads++;
          return value.apply(target, args);
        };
      },
    });
  return {
    db: { ...db, collection: (name: string) => counted(db.collection(name)) } as StoreDb,
    reads: () => reads,
  };
}

const open: StoreHandler[] = [];

async function storeOver(engine: EmbeddedDb, config: StoreConfig = {}) {
  const { db, reads } = countingReads(engine);
  const handle = createStoreHandler({ db, ...config });
  open.push(handle);
  await handle.ready;
  const get = async (path: string, extra: Partial<StoreRequest> = {}) => handle(request('GET', path, extra));
  return { handle, get, reads };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((handle) => handle.close()));
});

describe('document answers kept between requests', () => {
  it('answers a document read again while its collection is unchanged without reading it, the same bytes and tag', async () => {
    const engine = createEmbeddedDb();
    await engine.collection('posts').insertOne({ _id: 'p1', title: 'first' });
    const { get, reads } = await storeOver(engine);
    const first = await get('/posts/p1');
    const readsAfterFirst = reads();
    const again = [await get('/posts/p1'), await get('/posts/p1')];
    expect(reads()).toBe(readsAfterFirst);
    expect(again.map((each) => each?.body)).toEqual([first?.body, first?.body]);
    expect(again.map((each) => each?.headers.etag)).toEqual([first?.headers.etag, first?.headers.etag]);
    expect(again[1]?.headers['content-length']).toBe(String(Buffer.byteLength(first?.body ?? '')));
  });

  it.each([
    [
      'updateOne',
      (db: EmbeddedDb) => db.collection('posts').updateOne({ _id: 'p1' }, { $set: { title: 'new' } }),
    ],
    ['replaceOne', (db: EmbeddedDb) => db.collection('posts').replaceOne({ _id: 'p1' }, { title: 'new' })],
    [
      'deleteOne then insertOne',
      async (db: EmbeddedDb) => {
        await db.collection('posts').deleteOne({ _id: 'p1' });
        await db.collection('posts').insertOne({ _id: 'p1', title: 'new' });
      },
    ],
    [
      'dropCollection then insertOne',
      async (db: EmbeddedDb) => {
        await db.dropCollection('posts');
        await db.collection('posts').insertOne({ _id: 'p1', title: 'new' });
      },
    ],
    [
      'a rename over it',
      async (db: EmbeddedDb) => {
        await db.collection('drafts').insertOne({ _id: 'p1', title: 'new' });
        await db.renameCollections([['drafts', 'posts']]);
      },
    ],
  ])(
    'answers what other code of the process wrote straight to the engine (%s) at the next read',
    async (_, write) => {
      const engine = createEmbeddedDb();
      await engine.collection('posts').insertOne({ _id: 'p1', title: 'old' });
      const { get } = await storeOver(engine);
      await get('/posts/p1');
      const kept = await get('/posts/p1');
      await write(engine);
      const after = await get('/posts/p1');
      expect(JSON.parse(after?.body ?? '{}')).toMatchObject({ title: 'new' });
      expect(after?.headers.etag).not.toBe(kept?.headers.etag);
    },
  );

  it.each([
    ['deleteOne', (db: EmbeddedDb) => db.collection('posts').deleteOne({ _id: 'p1' })],
    ['dropCollection', (db: EmbeddedDb) => db.dropCollection('posts')],
    ['a rename away', (db: EmbeddedDb) => db.renameCollections([['posts', 'archive']])],
  ])('answers 404 once other code of the process removed the document (%s)', async (_, remove) => {
    const engine = createEmbeddedDb();
    await engine.collection('posts').insertOne({ _id: 'p1', title: 'old' });
    const { get } = await storeOver(engine);
    await get('/posts/p1');
    expect((await get('/posts/p1'))?.status).toBe(200);
    await remove(engine);
    expect((await get('/posts/p1'))?.status).toBe(404);
  });

  it('answers 404 once the document expired under a TTL index, though nothing else touched the collection', async () => {
    const engine = createEmbeddedDb();
    const posts = engine.collection('posts');
    await posts.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    await posts.insertOne({ _id: 'p1', title: 'expires', expiresAt: new Date(Date.now() + 150) });
    const { get } = await storeOver(engine);
    await get('/posts/p1');
    expect((await get('/posts/p1'))?.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await get('/posts/p1'))?.status).toBe(404);
  });

  it('never answers what a read saw when a write came while it was under way', async () => {
    const engine = createEmbeddedDb();
    await engine.collection('posts').insertOne({ _id: 'p1', title: 'old' });
    const { get } = await storeOver(engine);
    const reading = get('/posts/p1');
    const writing = engine.collection('posts').updateOne({ _id: 'p1' }, { $set: { title: 'new' } });
    await Promise.all([reading, writing]);
    expect(JSON.parse((await get('/posts/p1'))?.body ?? '{}')).toMatchObject({ title: 'new' });
  });

  it('answers a write through the store at the next read, and a 304 for the kept tag', async () => {
    const engine = createEmbeddedDb();
    await engine.collection('posts').insertOne({ _id: 'p1', title: 'old' });
    const { handle, get } = await storeOver(engine);
    const kept = (await get('/posts/p1'))?.headers.etag as string;
    expect(await get('/posts/p1', { headers: { 'if-none-match': kept } })).toMatchObject({ status: 304 });
    const head = await handle(request('HEAD', '/posts/p1'));
    expect([head?.status, head?.headers.etag, head?.body]).toEqual([200, kept, undefined]);
    await handle(
      request('PATCH', '/posts/p1', {
        headers: { 'content-type': 'application/json' },
        body: '{"title":"new"}',
      }),
    );
    const after = await get('/posts/p1', { headers: { 'if-none-match': kept } });
    expect(after?.status).toBe(200);
    expect(JSON.parse(after?.body ?? '{}')).toMatchObject({ title: 'new' });
  });

  it('runs the access rule on every request: a rule that now refuses refuses a kept answer', async () => {
    const engine = createEmbeddedDb();
    await engine.collection('posts').insertOne({ _id: 'p1', title: 'first' });
    let allowed = true;
    const { get } = await storeOver(engine, { resources: { posts: { access: { read: () => allowed } } } });
    await get('/posts/p1');
    expect((await get('/posts/p1'))?.status).toBe(200);
    allowed = false;
    expect((await get('/posts/p1'))?.status).toBe(401);
  });

  it('checks a kept answer against the request budget of answer bytes', async () => {
    const engine = createEmbeddedDb();
    await engine.collection('posts').insertOne({ _id: 'p1', title: 'x'.repeat(200) });
    let answerBytes = 10_000;
    const { get } = await storeOver(engine, { budgets: { answerBytes: () => answerBytes } });
    await get('/posts/p1');
    answerBytes = 100;
    expect(await get('/posts/p1')).toMatchObject({ status: 422 });
  });

  it.each<[string, StoreConfig, Partial<StoreRequest>]>([
    ['a query string', {}, { rawQuery: '$select=title' }],
    ['an access filter', { resources: { posts: { access: { read: () => ({ title: 'first' }) } } } }, {}],
    [
      'a beforeRead filter',
      { resources: { posts: { hooks: { beforeRead: () => ({ title: 'first' }) } } } },
      {},
    ],
    ['soft delete', { resources: { posts: { softDelete: true } } }, {}],
    ['an afterRead hook', { resources: { posts: { hooks: { afterRead: (_, docs) => docs } } } }, {}],
  ])('reads the collection on every request with %s', async (_, config, extra) => {
    const engine = createEmbeddedDb();
    await engine.collection('posts').insertOne({ _id: 'p1', title: 'first' });
    const { get, reads } = await storeOver(engine, config);
    await get('/posts/p1', extra);
    const before = reads();
    const again = await get('/posts/p1', extra);
    expect(again?.status).toBe(200);
    expect(reads()).toBeGreaterThan(before);
  });

  it('reads on every request from storage that cannot tell a collection changed (no contentVersion, as on MongoDB)', async () => {
    const engine = createEmbeddedDb();
    await engine.collection('posts').insertOne({ _id: 'p1', title: 'first' });
    const db = {
      collection: (name: string) => {
        const { contentVersion: _, ...rest } = Object.getOwnPropertyDescriptors(
          Object.getPrototypeOf(engine.collection(name)),
        );
        const inner = engine.collection(name);
        return Object.fromEntries(
          Object.keys(rest)
            .filter((key) => typeof Reflect.get(inner, key) === 'function' && key !== 'constructor')
            .map((key) => [key, (...args: unknown[]) => Reflect.get(inner, key).apply(inner, args)]),
        );
      },
    } as unknown as EmbeddedDb;
    const { get, reads } = await storeOver(db);
    await get('/posts/p1');
    const before = reads();
    expect((await get('/posts/p1'))?.status).toBe(200);
    expect(reads()).toBeGreaterThan(before);
  });
});

describe('DocumentAnswers bounds', () => {
  const text = (bytes: number) => ({ body: 'x'.repeat(bytes), bytes });

  it('keeps at most its byte bound, the answers kept longest going first', () => {
    const answers = new DocumentAnswers();
    const each = KEPT_ANSWER_AT_MOST;
    const count = Math.ceil(KEPT_BYTES_AT_MOST / each) + 10;
    for (let i = 0; i < count; i++) answers.keep({ key: `posts/${i}`, version: 1 }, text(each), `"${i}"`);
    expect(answers.size.bytes).toBeLessThanOrEqual(KEPT_BYTES_AT_MOST);
    expect(answers.find({ key: 'posts/0', version: 1 })).toBeUndefined();
    expect(answers.find({ key: `posts/${count - 1}`, version: 1 })?.etag).toBe(`"${count - 1}"`);
  });

  it('does not keep an answer past its size bound, and forgets what it replaces', () => {
    const answers = new DocumentAnswers();
    answers.keep({ key: 'posts/1', version: 1 }, text(10), '"a"');
    answers.keep({ key: 'posts/1', version: 2 }, text(KEPT_ANSWER_AT_MOST + 1), '"b"');
    expect(answers.size).toEqual({ answers: 0, bytes: 0 });
  });

  it('answers a kept answer only for the version it was read at', () => {
    const answers = new DocumentAnswers();
    answers.keep({ key: 'posts/1', version: 7 }, text(10), '"a"');
    expect(answers.find({ key: 'posts/1', version: 8 })).toBeUndefined();
    expect(answers.find({ key: 'posts/1', version: 7 })?.etag).toBe('"a"');
  });
});
