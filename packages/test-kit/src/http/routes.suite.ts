import { describe, expect, it } from 'vitest';
import type { Start } from './fixtures';
import { expectProblem, field } from './harness';

const HEX24 = /^[0-9a-f]{24}$/;

/** The resource routes, their statuses and headers. */
export function routeTests(start: Start): void {
  describe('GET /<res>', () => {
    it('answers 200 with an empty JSON array for an empty resource', async () => {
      const api = await start();
      const reply = await api.get('/posts');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(reply.json).toEqual([]);
    });

    it('answers the stored documents', async () => {
      const api = await start();
      await api.seed('posts', [
        { _id: 1, title: 'a' },
        { _id: 2, title: 'b' },
      ]);
      expect((await api.get('/posts')).json).toEqual([
        { _id: 1, title: 'a' },
        { _id: 2, title: 'b' },
      ]);
    });
  });

  describe('POST /<res>', () => {
    it('answers 201 with the stored document, a new 24-hex string _id and its Location', async () => {
      const api = await start();
      const reply = await api.post('/posts', { title: 'Hello', views: 12 });
      expect(reply.status).toBe(201);
      expect(reply.json).toEqual({ _id: expect.stringMatching(HEX24), title: 'Hello', views: 12 });
      const id = field(reply.json, '_id');
      expect(reply.headers.get('location')).toBe(`/api/posts/${id}`);
      const stored = await api.db.collection('posts').findOne({ _id: id });
      expect(stored).toMatchObject({ _id: id, title: 'Hello' });
      expect((await api.get(`/posts/${id}`)).json).toEqual(reply.json);
    });

    it.each([
      ['a string', 'my-post', 'my-post'],
      ['a number', 7, '7'],
    ])('keeps a body _id given as %s', async (_, id, segment) => {
      const api = await start();
      const reply = await api.post('/posts', { _id: id, title: 't' });
      expect(reply.status).toBe(201);
      expect(field(reply.json, '_id')).toBe(id);
      expect(reply.headers.get('location')).toBe(`/api/posts/${segment}`);
      expect((await api.get(`/posts/${segment}`)).json).toEqual({ _id: id, title: 't' });
    });

    it('answers 409 conflict when the _id is taken', async () => {
      const api = await start();
      await api.seed('posts', [{ _id: 'x' }]);
      expectProblem(await api.post('/posts', { _id: 'x', again: true }), 409, 'conflict');
      expect((await api.get('/posts/x')).json).toEqual({ _id: 'x' });
    });

    it.each([
      ['an array of strings (an array is a bulk create of documents)', ['text']],
      ['a string', 'text'],
      ['null', null],
    ])('answers 400 invalid_body for %s', async (_, body) => {
      const api = await start();
      expectProblem(await api.post('/posts', body), 400, 'invalid_body');
    });

    it.each([
      ['an object', { a: 1 }],
      ['an empty string', ''],
      ['a fraction', 1.5],
      ['a boolean', true],
    ])('answers 400 invalid_body for an _id that is %s', async (_, id) => {
      const api = await start();
      expectProblem(await api.post('/posts', { _id: id }), 400, 'invalid_body');
    });
  });

  describe('GET /<res>/<id>', () => {
    it('finds a number _id by its integer segment and a string _id by the same string', async () => {
      const api = await start();
      await api.seed('items', [
        { _id: 5, kind: 'number' },
        { _id: 'abc', kind: 'string' },
      ]);
      expect((await api.get('/items/5')).json).toEqual({ _id: 5, kind: 'number' });
      expect((await api.get('/items/abc')).json).toEqual({ _id: 'abc', kind: 'string' });
    });

    it('finds an ObjectId _id by its 24 hex digits, answered as a string', async () => {
      const api = await start();
      const hex = '507f1f77bcf86cd799439011';
      await api.seed('items', [{ _id: { $oid: hex }, kind: 'oid' }]);
      expect((await api.get(`/items/${hex}`)).json).toEqual({ _id: hex, kind: 'oid' });
    });

    it('decodes a percent-encoded id segment', async () => {
      const api = await start();
      await api.seed('items', [{ _id: 'a b/c' }]);
      expect((await api.get('/items/a%20b%2Fc')).json).toEqual({ _id: 'a b/c' });
    });

    it('answers 404 not_found for an unknown id', async () => {
      const api = await start();
      expectProblem(await api.get('/items/nope'), 404, 'not_found');
    });

    it('applies $select to the document', async () => {
      const api = await start();
      await api.seed('items', [{ _id: 1, a: 1, b: 2 }]);
      expect((await api.get('/items/1?$select=a')).json).toEqual({ a: 1 });
    });
  });

  describe('PUT /<res>/<id>', () => {
    it('answers 200 with the new document, keeping the _id', async () => {
      const api = await start();
      await api.seed('items', [{ _id: 1, a: 1, b: 2 }]);
      const reply = await api.request('PUT', '/items/1', { body: { a: 10 } });
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ _id: 1, a: 10 });
      expect((await api.get('/items/1')).json).toEqual({ _id: 1, a: 10 });
    });

    it('accepts the same _id in the body', async () => {
      const api = await start();
      await api.seed('items', [{ _id: 1, a: 1 }]);
      expect((await api.request('PUT', '/items/1', { body: { _id: 1, a: 2 } })).json).toEqual({
        _id: 1,
        a: 2,
      });
    });

    it('answers 400 invalid_body for a different _id in the body', async () => {
      const api = await start();
      await api.seed('items', [{ _id: 1, a: 1 }]);
      expectProblem(await api.request('PUT', '/items/1', { body: { _id: 2, a: 2 } }), 400, 'invalid_body');
      expect((await api.get('/items/1')).json).toEqual({ _id: 1, a: 1 });
    });

    it('answers 404 not_found for an unknown id', async () => {
      const api = await start();
      expectProblem(await api.request('PUT', '/items/9', { body: { a: 1 } }), 404, 'not_found');
      expect((await api.get('/items')).json).toEqual([]);
    });
  });

  describe('PATCH /<res>/<id>', () => {
    it('sets top-level and dotted keys, keeping the other fields', async () => {
      const api = await start();
      await api.seed('items', [{ _id: 1, a: 1, author: { name: 'Ann', age: 30 }, keep: true }]);
      const reply = await api.request('PATCH', '/items/1', { body: { a: 2, 'author.name': 'Bob' } });
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ _id: 1, a: 2, author: { name: 'Bob', age: 30 }, keep: true });
      expect((await api.get('/items/1')).json).toEqual(reply.json);
    });

    it.each([
      ['an empty object', {}],
      ['an array', [1]],
      ['a different _id', { _id: 2 }],
      ['a $ operator key', { $set: { a: 1 } }],
      ['a dotted key through $', { 'a.$b': 1 }],
      ['overlapping paths', { a: { b: 1 }, 'a.b': 2 }],
    ])('answers 400 invalid_body for %s', async (_, body) => {
      const api = await start();
      await api.seed('items', [{ _id: 1, a: 1 }]);
      expectProblem(await api.request('PATCH', '/items/1', { body }), 400, 'invalid_body');
      expect((await api.get('/items/1')).json).toEqual({ _id: 1, a: 1 });
    });

    it('answers 400 invalid_body for a dotted key through a scalar, changing nothing', async () => {
      const api = await start();
      await api.seed('items', [{ _id: 1, a: 1 }]);
      expectProblem(await api.request('PATCH', '/items/1', { body: { 'a.b': 2 } }), 400, 'invalid_body');
      expect((await api.get('/items/1')).json).toEqual({ _id: 1, a: 1 });
    });

    it('answers 404 not_found for an unknown id', async () => {
      const api = await start();
      expectProblem(await api.request('PATCH', '/items/9', { body: { a: 1 } }), 404, 'not_found');
    });
  });

  describe('DELETE /<res>/<id>', () => {
    it('answers 204 without a body, and the document is gone', async () => {
      const api = await start();
      await api.seed('items', [{ _id: 1 }, { _id: 2 }]);
      const reply = await api.request('DELETE', '/items/1');
      expect(reply.status).toBe(204);
      expect(reply.text).toBe('');
      expectProblem(await api.get('/items/1'), 404, 'not_found');
      expect((await api.get('/items')).json).toEqual([{ _id: 2 }]);
    });

    it('answers 404 not_found for an unknown id', async () => {
      const api = await start();
      expectProblem(await api.request('DELETE', '/items/1'), 404, 'not_found');
    });
  });

  describe('one _id per URL', () => idAliasTests(start));
}

const HEX = '65f0c0ffee0000000000beef';

function idAliasTests(start: Start): void {
  it.each([
    ['a number, then its string', 7, '7'],
    ['a string, then its number', '7', 7],
    ['a hex string, then its ObjectId', HEX, { $oid: HEX }],
    ['an ObjectId, then its hex string', { $oid: HEX }, HEX],
    ['an ObjectId, then its hex string in capitals', { $oid: HEX }, HEX.toUpperCase()],
    ['a capital hex string, then its ObjectId', HEX.toUpperCase(), { $oid: HEX }],
  ])('answers 409 conflict for %s, and the URL names one document', async (_what, first, second) => {
    const api = await start();
    expect((await api.post('/things', { _id: first, n: 1 })).status).toBe(201);
    expectProblem(await api.post('/things', { _id: second, n: 2 }), 409, 'conflict');
    expect((await api.get('/things')).json).toEqual([expect.objectContaining({ n: 1 })]);
  });

  it('keeps ids that share no URL apart (7 and "07", "a" and "A")', async () => {
    const api = await start();
    for (const _id of [7, '07', 'a', 'A', '7.5'])
      expect((await api.post('/things', { _id })).status).toBe(201);
    expect((await api.get('/things')).json).toHaveLength(5);
  });

  it('answers 409 for an alias of a document stored by other means', async () => {
    const api = await start();
    await api.seed('things', [{ _id: 7 }]);
    expectProblem(await api.post('/things', { _id: '7' }), 409, 'conflict');
  });

  it('lets exactly one of parallel aliasing creates succeed, or none', async () => {
    const api = await start();
    const bodies = [7, '7', 7, '7', 7, '7'].map((_id) => ({ _id }));
    const replies = await Promise.all(bodies.map((body) => api.post('/things', body)));
    const created = replies.filter((reply) => reply.status === 201);
    expect(created.length).toBeLessThanOrEqual(1);
    for (const reply of replies) if (reply.status !== 201) expectProblem(reply, 409, 'conflict');
    expect((await api.get('/things')).json).toHaveLength(created.length);
  });

  it('makes DELETE /<res>/<id> leave nothing behind the URL', async () => {
    const api = await start();
    await api.post('/things', { _id: 7 });
    await api.post('/things', { _id: '7' });
    expect((await api.request('DELETE', '/things/7')).status).toBe(204);
    expectProblem(await api.get('/things/7'), 404, 'not_found');
  });
}
