/**
 * The store through the official driver, majors 6 and 7, over the wire front:
 * by-id routes with the application's own client, a restart with changed owned indexes, and a
 * store started before its database.
 */
import { magicAuth } from '@store/auth-magic';
import { createCapturingMailer } from '@store/auth-magic/testing';
import { createStoreHandler, type StoreConfig, type StoreRequest } from '@store/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startWireFront, type WireFront } from '../src/index';
import { type Client, DRIVERS, freePort } from './support/drivers';

const request = (method: string, path: string, body?: unknown, rawQuery = ''): StoreRequest => ({
  method,
  path,
  rawQuery,
  headers: body === undefined ? {} : { 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
});

async function eventually<T>(attempt: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const quiet = () => ({ error: vi.fn(), warn: vi.fn() });

describe.each(DRIVERS)('the store on %s over the wire front', (_major, MongoClient) => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });

  async function connected(front: WireFront): Promise<Client> {
    const client = await new MongoClient(front.uri, { serverSelectionTimeoutMS: 2_000 }).connect();
    cleanup.push(() => client.close());
    return client;
  }

  function store(config: StoreConfig) {
    const handle = createStoreHandler(config);
    cleanup.push(() => handle.close());
    return handle;
  }

  it("answers the by-id routes with the application's own client (ObjectIds of its bson)", async () => {
    const front = await startWireFront();
    cleanup.push(() => front.close());
    const client = await connected(front);
    const handle = store({ db: client.db('shop'), logger: quiet() });
    const created = await handle(request('POST', '/posts', { title: 'hello' }));
    expect(created?.status).toBe(201);
    const id = JSON.parse(String(created?.body))._id as string;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    // A document the application stored with an ObjectId of its own driver, read by its hex id.
    const own = await client.db('shop').collection('posts').insertOne({ title: 'from the app' });
    const hex = own.insertedId.toHexString();
    for (const path of [`/posts/${id}`, `/posts/${hex}`]) {
      expect((await handle(request('GET', path)))?.status).toBe(200);
    }
    expect((await handle(request('PATCH', `/posts/${hex}`, { title: 'patched' })))?.status).toBe(200);
    expect((await handle(request('GET', '/posts', undefined, `_id:id=${hex}`)))?.body).toContain('patched');
    expect((await handle(request('DELETE', `/posts/${hex}`)))?.status).toBe(204);
  });

  it('starts again with changed search fields and a changed TTL, with the changed indexes in place', async () => {
    const front = await startWireFront();
    cleanup.push(() => front.close());
    const db = (await connected(front)).db('blog');
    const auth = { magicCode: {}, mailer: createCapturingMailer() };
    const config = (search: string[]): StoreConfig => ({
      db,
      logger: quiet(),
      secret: 'store-on-driver-secret-0123',
      baseUrl: 'https://blog.example/api',
      plugins: [magicAuth],
      resources: { posts: { search }, user: { auth } },
    });
    const first = store(config(['title']));
    await first.ready;
    await first.close();
    // As an earlier version left it: the code secrets' TTL index with expireAfterSeconds 0.
    const codes = db.collection('svc-magic-codes');
    await codes.dropIndex('store_expiresAt_1');
    await codes.createIndex({ expiresAt: 1 }, { name: 'store_expiresAt_1', expireAfterSeconds: 0 });
    const second = store(config(['title', 'body']));
    await second.ready;
    const search = (await db.collection('posts').listIndexes().toArray()).find(
      (i) => i.name === 'store_search',
    );
    expect(Object.keys(search?.weights ?? {}).sort()).toEqual(['body', 'title']);
    expect(search).toMatchObject({ language_override: '_store_text_language' });
    const ttl = (await codes.listIndexes().toArray()).find((i) => i.name === 'store_expiresAt_1');
    expect(ttl).toMatchObject({ expireAfterSeconds: 86_400 });
    // A document's own `language` is data: stored, and found by `$search`.
    const posted = await second(
      request('POST', '/posts', { title: 'qapla', body: 'x', language: 'klingon' }),
    );
    expect(posted?.status).toBe(201);
    expect((await second(request('GET', '/posts', undefined, '$search=qapla')))?.body).toContain('klingon');
  });

  it('answers 503 database_unavailable until its database is up, then serves without a restart', async () => {
    const port = await freePort();
    const client = new MongoClient(`mongodb://127.0.0.1:${port}/late?directConnection=true`, {
      serverSelectionTimeoutMS: 300,
    });
    cleanup.push(() => client.close());
    const logger = quiet();
    const handle = store({ db: client.db('late'), logger, resources: { notes: { search: ['text'] } } });
    const refused = await handle(request('GET', '/notes'));
    expect(refused?.status).toBe(503);
    expect(refused?.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(JSON.parse(String(refused?.body))).toMatchObject({ code: 'database_unavailable' });
    const front = await startWireFront({ port });
    cleanup.push(() => front.close());
    const served = await eventually(async () => {
      const reply = await handle(request('GET', '/notes'));
      return reply?.status === 200 ? reply : undefined;
    });
    expect(served.body).toBe('[]');
    await handle.ready;
    expect((await handle(request('POST', '/notes', { text: 'up' })))?.status).toBe(201);
    const lines = [...logger.error.mock.calls, ...logger.warn.mock.calls].map(([line]) => String(line));
    expect(lines.filter((line) => line.includes('cannot be reached'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('reachable again'))).toHaveLength(1);
  });
});

describe('a connection string to a database that starts late', () => {
  it('is retried by the store until the database answers (the store owns the client)', async () => {
    const port = await freePort();
    const handle = createStoreHandler({
      db: `mongodb://127.0.0.1:${port}/late?directConnection=true&serverSelectionTimeoutMS=300`,
      logger: quiet(),
    });
    try {
      expect((await handle(request('GET', '/notes')))?.status).toBe(503);
      const front = await startWireFront({ port });
      try {
        await eventually(async () =>
          (await handle(request('GET', '/notes')))?.status === 200 ? true : undefined,
        );
      } finally {
        await handle.close();
        await front.close();
      }
    } finally {
      await handle.close();
    }
  });
});
