import { describe, expect, it } from 'vitest';
import { withAuth } from './auth-fixtures';
import type { Start } from './fixtures';
import { expectPassedOn, expectProblem, readStored } from './harness';

/** Methods per route, which paths are the store's and `Location` (relationships: relations.suite.ts). */
export function pathTests(start: Start): void {
  describe('other methods', () => {
    it.each([
      ['PUT', '/items', 'GET, HEAD, POST, PATCH, DELETE'],
      ['POST', '/items/1', 'GET, HEAD, PUT, PATCH, DELETE'],
      ['POST', '/items/1/children', 'GET, HEAD'],
      ['DELETE', '/items/1/children', 'GET, HEAD'],
    ])('%s %s answers 405 method_not_allowed with Allow: %s', async (method, path, allow) => {
      const api = await start();
      const reply = await api.request(method, path);
      expectProblem(reply, 405, 'method_not_allowed');
      expect(reply.headers.get('allow')).toBe(allow);
    });

    it('answers HEAD like GET, without a body', async () => {
      const api = await start();
      await api.seed('items', [{ _id: 1, a: 1 }]);
      const get = await api.get('/items');
      const head = await api.request('HEAD', '/items');
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
      expect((await api.request('HEAD', '/items/1')).status).toBe(200);
      const missing = await api.request('HEAD', '/items/2');
      expect([missing.status, missing.text]).toEqual([404, '']);
    });
  });

  describe('resource names', () => {
    it.each([
      ['starting with "-"', '/-items'],
      ['starting with "_"', '/_items'],
      ['with a dot', '/items.json'],
      ['longer than 64 characters', `/${'a'.repeat(65)}`],
      ['more than three segments deep', '/items/1/children/2'],
    ])('passes a path %s on to the host app', async (_, path) => {
      const api = await start();
      expectPassedOn(await api.get(path));
    });

    it('routes a 64-character name', async () => {
      const api = await start();
      expect((await api.get(`/${'a'.repeat(64)}`)).status).toBe(200);
    });

    it.each(['svc-magic-links', 'svc-magic-codes', 'svc-sessions', 'svc-rate-limits'])(
      'never routes the internal collection %s (sign-in on)',
      async (name) => {
        const api = await start(withAuth());
        await api.db.collection(name).insertOne({ _id: 'secret', token: 'hash' });
        expectPassedOn(await api.get(`/${name}`));
        expectPassedOn(await api.get(`/${name}/secret`));
        expectPassedOn(await api.request('DELETE', `/${name}/secret`));
        expectPassedOn(await api.get(`/items/1/${name}`));
        expect(await api.db.collection(name).findOne({ _id: 'secret' })).toMatchObject({ token: 'hash' });
      },
    );

    it('routes only declared resources under restrict: true', async () => {
      const api = await start({ restrict: true, resources: { posts: {} } });
      expect((await api.get('/posts')).status).toBe(200);
      expectPassedOn(await api.get('/comments'));
      expectPassedOn(await api.post('/comments', { a: 1 }));
    });

    it('stores a declared resource in its collection', async () => {
      const api = await start({ resources: { posts: { collection: 'articles' } } });
      await api.seed('posts', [{ _id: 1 }]);
      expect(await readStored(api, 'articles', { _id: 1 })).toEqual({ _id: 1 });
    });
  });

  describe('Location', () => {
    it('is <baseUrl>/<res>/<id> when baseUrl is set', async () => {
      const api = await start({ baseUrl: 'https://example.com/v1/' });
      const reply = await api.post('/posts', { _id: 'a b' });
      expect(reply.headers.get('location')).toBe('https://example.com/v1/posts/a%20b');
    });

    it('is /<res>/<id> when the store is mounted at the root', async () => {
      const api = await start({}, { prefix: '' });
      const reply = await api.post('/posts', { _id: 3 });
      expect(reply.headers.get('location')).toBe('/posts/3');
    });
  });
}
