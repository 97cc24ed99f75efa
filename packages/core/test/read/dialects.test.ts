/**
 * The foreign client dialects (`dialects`), through the handler on the embedded engine:
 * json-server's and simple-rest's parameters, the headers and shapes their clients read,
 * `DELETE` answering the document, `message` in problems, CORS, and the 400 hint the store's own
 * dialect answers for them. (`q` is an aggregation expression MongoDB evaluates as well; core's
 * tests cannot reach the engine matrix of `@store/test-kit`, which depends on core.)
 */
import type { Document, StoreDb } from '@store/common';
import { createEmbeddedDb } from '@store/embedded';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStoreHandler } from '../../src/handler/handler';
import type { StoreConfig } from '../../src/model/config';
import type { StoreHandler } from '../../src/model/http';
import { type Answer, send } from '../support/send';

const POSTS: Document[] = Array.from({ length: 12 }, (_, i) => ({
  _id: i + 1,
  title: `Post ${i + 1}`,
  body: i === 4 ? 'Lorem IPSUM dolor' : 'plain text',
  views: (i + 1) * 100,
  secret: 'lorem',
}));
const COMMENTS: Document[] = [
  { _id: 1, text: 'first', post_id: 1 },
  { _id: 2, text: 'second', post_id: 1 },
  { _id: 3, text: 'third', post_id: 2 },
];

const get = (handle: StoreHandler, path: string, headers: Record<string, string> = {}) =>
  send(handle, 'GET', path, { headers });
const ids = (answer: Answer) => (answer.body as Document[]).map((doc) => doc._id);
const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));

async function seeded(db: StoreDb) {
  await db.collection('posts').insertMany(POSTS.map((doc) => ({ ...doc })));
  await db.collection('comments').insertMany(COMMENTS.map((doc) => ({ ...doc })));
}

describe('dialects', () => {
  let handle: StoreHandler;
  const open = async (config: StoreConfig) => {
    const db = createEmbeddedDb();
    await seeded(db);
    handle = createStoreHandler({ db, resources: { posts: { hidden: ['secret'] } }, ...config });
    await handle.ready;
  };
  afterEach(() => handle?.close());

  describe('json-server', () => {
    beforeEach(() => open({ dialects: { jsonServer: true } }));

    it('sorts and slices with _sort/_order/_start/_end, with X-Total-Count and Link', async () => {
      const answer = await get(handle, '/posts?_sort=views&_order=desc&_start=2&_end=5');
      expect(answer.status).toBe(200);
      expect(ids(answer)).toEqual([10, 9, 8]);
      expect(answer.headers['x-total-count']).toBe('12');
      expect(answer.headers.link).toContain('rel="first"');
    });

    it('sorts by v1 -field lists', async () => {
      expect(ids(await get(handle, '/posts?_sort=-views&_limit=2'))).toEqual([12, 11]);
    });

    it('pages with _page/_limit, its Link URLs in the same parameters', async () => {
      const answer = await get(handle, '/posts?_page=2&_limit=5');
      expect(ids(answer)).toEqual([6, 7, 8, 9, 10]);
      expect(answer.headers.link).toContain('</posts?_page=3&_limit=5>; rel="next"');
      expect(answer.headers.link).toContain('</posts?_page=1&_limit=5>; rel="prev"');
      expect(answer.headers.link).toContain('</posts?_page=3&_limit=5>; rel="last"');
      const next = await get(handle, '/posts?_page=3&_limit=5');
      expect(ids(next)).toEqual([11, 12]);
    });

    it('answers v1 _page/_per_page with its envelope', async () => {
      const answer = await get(handle, '/posts?_page=2&_per_page=5');
      expect(answer.body).toMatchObject({ first: 1, prev: 1, next: 3, last: 3, pages: 3, items: 12 });
      expect((answer.body as { data: Document[] }).data.map((doc) => doc._id)).toEqual([6, 7, 8, 9, 10]);
    });

    it('answers the whole list when no paging is asked', async () => {
      const answer = await get(handle, '/posts');
      expect(ids(answer)).toHaveLength(12);
      expect(answer.headers['x-total-count']).toBe('12');
    });

    it('filters with _gte/_lte/_ne suffixes, v1 field:op, repeated values and _like', async () => {
      expect(ids(await get(handle, '/posts?views_gte=300&views_lte=500'))).toEqual([3, 4, 5]);
      expect(ids(await get(handle, '/posts?views:gt=1000'))).toEqual([11, 12]);
      expect(ids(await get(handle, '/posts?_id=2&_id=5'))).toEqual([2, 5]);
      expect(await get(handle, '/posts?_id_ne=1&views_lt=400')).toMatchObject({
        body: [{ _id: 2 }, { _id: 3 }],
      });
      expect(ids(await get(handle, '/posts?title_like=^post%201%5B01%5D'))).toEqual([10, 11]);
    });

    it('searches the string fields with q, case-insensitive, never the hidden ones', async () => {
      expect(ids(await get(handle, '/posts?q=ipsum'))).toEqual([5]);
      expect(ids(await get(handle, '/posts?q=LOREM'))).toEqual([5]);
      expect(ids(await get(handle, '/posts?q=post%2012'))).toEqual([12]);
      expect(ids(await get(handle, '/posts?q=.*'))).toEqual([]);
    });

    it('embeds children with _embed and a parent object with _expand, on lists and documents', async () => {
      const posts = await get(handle, '/posts?_embed=comments&_limit=2');
      expect((posts.body as Document[])[0]?.comments).toHaveLength(2);
      expect((posts.body as Document[])[1]?.comments).toEqual([{ _id: 3, text: 'third', post_id: 2 }]);
      const post = await get(handle, '/posts/1?_embed=comments');
      expect((post.body as Document).comments).toHaveLength(2);
      const comment = await get(handle, '/comments/3?_expand=post');
      expect(comment.body).toMatchObject({ _id: 3, post: { _id: 2, title: 'Post 2' } });
      expect((comment.body as Document).posts).toBeUndefined();
      const comments = await get(handle, '/comments?_embed=post');
      expect((comments.body as Document[]).map((doc) => (doc.post as Document)._id)).toEqual([1, 1, 2]);
    });

    it('answers a malformed relation name 400', async () => {
      expect((await get(handle, '/comments?_expand=no%20way')).status).toBe(400);
      expect((await get(handle, '/comments?_embed=a/b')).status).toBe(400);
    });

    it('answers a relation no routable resource has 400 under restrict', async () => {
      await handle.close();
      handle = createStoreHandler({ restrict: true, resources: { comments: {} }, dialects: true });
      expect((await get(handle, '/comments?_expand=post')).status).toBe(400);
      expect((await get(handle, '/comments?_embed=likes')).status).toBe(400);
    });

    it('answers a malformed dialect parameter 400 with message beside detail', async () => {
      const answer = await get(handle, '/posts?_page=x');
      expect(answer.status).toBe(400);
      const problem = answer.body as Document;
      expect(problem.code).toBe('invalid_query');
      expect(problem.message).toBe(problem.detail);
      expect(problem.detail).toContain('_page');
    });

    it('answers DELETE of one document 200 with the document as a read shows it', async () => {
      const answer = await send(handle, 'DELETE', '/posts/3');
      expect(answer).toMatchObject({ status: 200, body: { _id: 3, title: 'Post 3', views: 300 } });
      expect((answer.body as Document).secret).toBeUndefined();
      expect((await get(handle, '/posts/3')).status).toBe(404);
      expect((await send(handle, 'DELETE', '/posts/3')).status).toBe(404);
    });

    it('lists the children of a nested route with their total and q', async () => {
      const answer = await get(handle, '/posts/1/comments?_sort=text&_order=desc&q=SEC');
      expect(ids(answer)).toEqual([2]);
      expect(answer.headers['x-total-count']).toBe('1');
    });

    it('refuses a dialect paging parameter on a bulk change, and deletes by q', async () => {
      const paged = await send(handle, 'DELETE', '/posts?views_gte=1000&_limit=1');
      expect(paged).toMatchObject({ status: 400, body: { code: 'invalid_query' } });
      expect(await send(handle, 'DELETE', '/posts?q=IPSUM')).toMatchObject({
        status: 200,
        body: { deleted: 1 },
      });
      expect((await get(handle, '/posts/5')).status).toBe(404);
    });

    it('keeps the store own dialect working alongside', async () => {
      const answer = await get(handle, '/posts?views:gte=1100&$sort=-views&$select=title');
      expect(answer.body).toEqual([{ title: 'Post 12' }, { title: 'Post 11' }]);
      expect(answer.headers['x-total-count']).toBe('2');
    });
  });

  describe('simple-rest', () => {
    beforeEach(() => open({ dialects: { simpleRest: true } }));

    it('reads filter, range and sort, answering Content-Range and X-Total-Count', async () => {
      const query = `filter=${json({ views_gte: 300 })}&range=${json([0, 2])}&sort=${json(['views', 'DESC'])}`;
      const answer = await get(handle, `/posts?${query}`, { range: 'posts=0-2' });
      expect(ids(answer)).toEqual([12, 11, 10]);
      expect(answer.headers['content-range']).toBe('posts 0-2/10');
      expect(answer.headers['x-total-count']).toBe('10');
    });

    it('reads an array in filter as any of its values (react-admin getMany)', async () => {
      expect(ids(await get(handle, `/posts?filter=${json({ _id: [2, 7] })}`))).toEqual([2, 7]);
    });

    it('reads the Range header alone, and answers an empty page with an asterisk', async () => {
      const answer = await get(handle, '/posts', { range: 'posts=10-14' });
      expect(ids(answer)).toEqual([11, 12]);
      expect(answer.headers['content-range']).toBe('posts 10-11/12');
      const past = await get(handle, `/posts?range=${json([20, 29])}`);
      expect(past.headers['content-range']).toBe('posts */12');
    });

    it("reads Refine's _start/_end/_sort/_order, suffixes and q", async () => {
      const answer = await get(handle, '/posts?_start=0&_end=2&_sort=views&_order=asc&views_ne=100&q=post');
      expect(ids(answer)).toEqual([2, 3]);
      expect(answer.headers['x-total-count']).toBe('11');
    });

    it('answers malformed JSON 400 with message', async () => {
      const answer = await get(handle, '/posts?range=%5B1');
      expect(answer.status).toBe(400);
      expect((answer.body as Document).message).toBe((answer.body as Document).detail);
    });
  });
});

describe('dialects: the store own dialect (option off)', () => {
  let handle: StoreHandler;
  afterEach(() => handle?.close());

  it.each([
    ['_sort=views', '_sort', 'jsonServer'],
    ['_page=2', '_page', 'jsonServer'],
    ['_embed=comments', '_embed', 'jsonServer'],
    ['views_gte=3', 'views_gte', 'jsonServer'],
    ['title_like=a', 'title_like', 'jsonServer'],
    ['q=text', 'q', 'jsonServer'],
    ['range=%5B0%2C9%5D', 'range', 'simpleRest'],
    ['sort=%5B%22a%22%2C%22ASC%22%5D', 'sort', 'simpleRest'],
    ['filter=%7B%7D', 'filter', 'simpleRest'],
  ])('answers %s 400 foreign_dialect_parameter naming the option', async (query, parameter, option) => {
    handle = createStoreHandler();
    const answer = await get(handle, `/posts?${query}`);
    expect(answer.status).toBe(400);
    const problem = answer.body as Document;
    expect(problem.code).toBe('foreign_dialect_parameter');
    expect(problem.detail).toContain(parameter);
    expect(problem.detail).toContain(`dialects: { ${option}: true }`);
    expect(problem.message).toBeUndefined();
  });

  it('reads such a name as a field filter when the resource declares that field', async () => {
    handle = createStoreHandler({
      resources: { items: { schema: { type: 'object', properties: { sort: { type: 'string' } } } } },
    });
    await send(handle, 'POST', '/items', {
      headers: { 'content-type': 'application/json' },
      body: '[{"_id":1,"sort":"a"},{"_id":2,"sort":"b"}]',
    });
    expect(ids(await get(handle, '/items?sort=b'))).toEqual([2]);
    expect((await get(handle, '/items?range=1')).status).toBe(400);
  });

  it('reads a foreign name as a field with an explicit operator', async () => {
    handle = createStoreHandler();
    expect((await get(handle, '/posts?_sort:eq=a&q:eq=b')).status).toBe(200);
  });

  it('checks the children of a nested route by their own declared fields', async () => {
    handle = createStoreHandler({
      resources: { comments: { schema: { type: 'object', properties: { q: { type: 'string' } } } } },
    });
    expect((await get(handle, '/posts/1/comments?q=x')).status).toBe(200);
    expect((await get(handle, '/posts?q=x')).status).toBe(400);
  });

  it('answers DELETE 204 and no total', async () => {
    handle = createStoreHandler();
    await send(handle, 'POST', '/posts', {
      headers: { 'content-type': 'application/json' },
      body: '{"_id":1}',
    });
    expect((await get(handle, '/posts')).headers['x-total-count']).toBeUndefined();
    expect(await send(handle, 'DELETE', '/posts/1')).toMatchObject({ status: 204, body: undefined });
  });
});

describe('dialects: CORS', () => {
  it('exposes X-Total-Count, Link and Content-Range', async () => {
    const handle = createStoreHandler({ cors: true, dialects: true });
    const answer = await get(handle, '/posts', { origin: 'http://localhost:5173' });
    const exposed = answer.headers['access-control-expose-headers'] ?? '';
    for (const name of ['X-Total-Count', 'Link', 'Content-Range']) expect(exposed).toContain(name);
    await handle.close();
  });
});

describe('dialects option', () => {
  it.each([
    ['yes', /"dialects"/],
    [{ jsonServer: 1 }, /"dialects\.jsonServer"/],
    [{ graphql: true }, /"dialects\.graphql"/],
  ])('refuses %j naming the option', (value, message) => {
    expect(() => createStoreHandler({ dialects: value as never })).toThrow(message);
  });
});
