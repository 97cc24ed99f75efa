/**
 * `wireId: 'id'`, through the handler: the primary key is `id` in answers (related documents
 * too), filters, `$sort`, `$select`, `$query`, cursors, bodies and change events, while storage
 * and hooks keep `_id`; the values keep their types (`1` stays the number 1, at `/posts/1`).
 */
import type { Document, StoreDb } from '@store/common';
import { createEmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveStoreOptions } from '../../src/config/options';
import { createStoreHandler } from '../../src/handler/handler';
import type { StoreConfig } from '../../src/model/config';
import type { StoreHandler } from '../../src/model/http';
import { type Answer, send } from '../support/send';

const POSTS: Document[] = Array.from({ length: 6 }, (_, i) => ({
  _id: i + 1,
  title: `Post ${i + 1}`,
  views: (i + 1) * 10,
}));
const COMMENTS: Document[] = [
  { _id: 'c1', text: 'first', postId: 1 },
  { _id: 'c2', text: 'second', post_id: 1 },
  { _id: 'c3', text: 'third', postId: 2 },
];

const JSON_BODY = { 'content-type': 'application/json' };
const write = (handle: StoreHandler, method: string, path: string, body: unknown) =>
  send(handle, method, path, { headers: JSON_BODY, body: JSON.stringify(body) });
const ids = (answer: Answer) => (answer.body as Document[]).map((doc) => doc.id);
const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** Reads an event stream until `count` events arrived; answers their `event:` and `data:`. */
async function readEvents(stream: ReadableStream<Uint8Array>, count: number) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const events: { event: string; data: unknown }[] = [];
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const blocks = text.split('\n\n');
    text = blocks.pop() ?? '';
    for (const block of blocks) {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event !== undefined && data !== undefined) events.push({ event, data: JSON.parse(data) });
    }
  }
  await reader.cancel();
  return events;
}

describe('the wireId option', () => {
  it("is '_id' by default, takes 'id', and refuses anything else naming the option", () => {
    expect(resolveStoreOptions({}).wireId).toBe('_id');
    expect(resolveStoreOptions({ wireId: 'id' }).wireId).toBe('id');
    expect(() => resolveStoreOptions({ wireId: 'ID' as never })).toThrow(/wireId/);
  });
});

describe('wireId', () => {
  let handle: StoreHandler;
  let db: StoreDb;
  const open = async (config: StoreConfig = {}) => {
    db = createEmbeddedDb();
    await db.collection('posts').insertMany(POSTS.map((doc) => ({ ...doc })));
    await db.collection('comments').insertMany(COMMENTS.map((doc) => ({ ...doc })));
    handle = createStoreHandler({ db, wireId: 'id', ...config });
    await handle.ready;
  };
  afterEach(async () => {
    await handle?.close();
  });

  it('answers id for _id, with its type, at the path of its value', async () => {
    await open();
    const one = await send(handle, 'GET', '/posts/1');
    expect(one.body).toEqual({ id: 1, title: 'Post 1', views: 10 });
    const list = await send(handle, 'GET', '/posts?$limit=2');
    expect(list.body).toEqual([
      { id: 1, title: 'Post 1', views: 10 },
      { id: 2, title: 'Post 2', views: 20 },
    ]);
  });

  it('reads id in filters, $or groups, $query, $regex, $sort and $select', async () => {
    await open();
    expect(ids(await send(handle, 'GET', '/posts?id=2&id=5'))).toEqual([2, 5]);
    expect(ids(await send(handle, 'GET', '/posts?id:gte=5&$sort=-id'))).toEqual([6, 5]);
    expect(ids(await send(handle, 'GET', '/posts?$or[0][id]=1&$or[1][id]=3'))).toEqual([1, 3]);
    expect(ids(await send(handle, 'GET', `/posts?$query=${json({ id: { $in: [4, 6] } })}`))).toEqual([4, 6]);
    expect(ids(await send(handle, 'GET', `/comments?$regex=${json(['id', '^c[12]$'])}`))).toEqual([
      'c1',
      'c2',
    ]);
    expect((await send(handle, 'GET', '/posts/3?$select=id')).body).toEqual({ id: 3 });
    expect((await send(handle, 'GET', '/posts/3?$select=title')).body).toEqual({ title: 'Post 3' });
    expect((await send(handle, 'GET', '/posts?$sort=id&$sort=_id')).status).toBe(400);
  });

  it('pages by cursor on a sort by id', async () => {
    await open();
    const first = await send(handle, 'GET', '/posts?$sort=-id&$limit=4');
    expect(ids(first)).toEqual([6, 5, 4, 3]);
    const next = /<[^>]*\?([^>]*)>; rel="next"/.exec(first.headers.link ?? '')?.[1] as string;
    expect(ids(await send(handle, 'GET', `/posts?${next}`))).toEqual([2, 1]);
  });

  it('stores a POSTed id as _id with its type, and shows it as id', async () => {
    await open();
    const created = await write(handle, 'POST', '/posts', { id: 7, title: 'Seven' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 7, title: 'Seven' });
    expect(created.headers.location).toBe('/posts/7');
    expect(await db.collection('posts').findOne({ _id: 7 })).toMatchObject({ _id: 7, title: 'Seven' });
    const many = await write(handle, 'POST', '/posts', [{ id: 'eight' }, { title: 'made' }]);
    expect(many.body).toEqual([
      { id: 'eight' },
      { id: expect.stringMatching(/^[0-9a-f]{24}$/), title: 'made' },
    ]);
  });

  it('reads a PUT or PATCH body id as the _id: the same one is kept, another one is a 400', async () => {
    await open();
    expect((await write(handle, 'PUT', '/posts/1', { id: 1, title: 'New' })).body).toEqual({
      id: 1,
      title: 'New',
    });
    expect((await write(handle, 'PATCH', '/posts/1', { id: 1, views: 3 })).body).toEqual({
      id: 1,
      title: 'New',
      views: 3,
    });
    const moved = await write(handle, 'PUT', '/posts/1', { id: 2, title: 'Moved' });
    expect(moved).toMatchObject({
      status: 400,
      body: {
        code: 'invalid_body',
        detail: expect.stringContaining('body.id: differs from the id in the path'),
      },
    });
    const bad = await write(handle, 'POST', '/posts', { id: true });
    expect(bad).toMatchObject({
      status: 400,
      body: { detail: expect.stringMatching(/^body\.id: expected/) },
    });
    const both = await write(handle, 'POST', '/posts', { id: 9, _id: 9 });
    expect(both).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    expect((both.body as { detail: string }).detail).toMatch(/"id" and "_id"/);
  });

  it('hands hooks the _id', async () => {
    const seen: unknown[] = [];
    await open({
      resources: {
        posts: {
          hooks: {
            beforeWrite: (ctx) => {
              seen.push(ctx.body._id);
            },
            afterRead: (_ctx, documents) => {
              seen.push(...documents.map((doc) => doc._id));
              return documents;
            },
          },
        },
      },
    });
    await write(handle, 'POST', '/posts', { id: 10, title: 'Ten' });
    expect(seen).toEqual([10, 10]);
  });

  it('shows id in populated and filled documents; a foreign dialect joins postId too', async () => {
    await open({ dialects: true });
    const post = await send(handle, 'GET', '/posts/1?$populate=comments');
    expect(post.body).toEqual({
      id: 1,
      title: 'Post 1',
      views: 10,
      comments: [
        { id: 'c1', text: 'first', postId: 1 },
        { id: 'c2', text: 'second', post_id: 1 },
      ],
    });
    const comment = await send(handle, 'GET', '/comments/c3?$fill=posts');
    expect(comment.body).toEqual({
      id: 'c3',
      text: 'third',
      postId: 2,
      posts: [{ id: 2, title: 'Post 2', views: 20 }],
    });
    expect(ids(await send(handle, 'GET', '/posts/1/comments'))).toEqual(['c1', 'c2']);
  });

  it('names the deleted document by id in change events', async () => {
    await open();
    const response = await handle({
      method: 'GET',
      path: '/posts',
      rawQuery: 'id=3',
      headers: { accept: 'text/event-stream' },
    });
    const events = readEvents(response?.stream as ReadableStream<Uint8Array>, 2);
    await write(handle, 'PATCH', '/posts/3', { views: 31 });
    await send(handle, 'DELETE', '/posts/3');
    expect(await events).toEqual([
      { event: 'updated', data: { id: 3, title: 'Post 3', views: 31 } },
      { event: 'deleted', data: { id: 3 } },
    ]);
  });
});

describe('nested routes without a foreign dialect', () => {
  it('join <singular>_id only', async () => {
    const db = createEmbeddedDb();
    await db.collection('comments').insertMany(COMMENTS.map((doc) => ({ ...doc })));
    const handle = createStoreHandler({ db });
    await handle.ready;
    const children = await send(handle, 'GET', '/posts/1/comments');
    expect((children.body as Document[]).map((doc) => doc._id)).toEqual(['c2']);
    await handle.close();
  });
});
