import { createEmbeddedDb } from '@store/embedded';
import { describe, expect, it } from 'vitest';
import { createStore, type FetchStoreOptions } from '../src/index';

async function storeWith(options?: FetchStoreOptions & { fallthrough?: false }) {
  const store = createStore({ db: createEmbeddedDb() }, options);
  await store.ready;
  return store;
}

const post = (url: string, body: unknown) =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('createStore (fetch)', () => {
  it('answers a resource route with a Response', async () => {
    const store = await storeWith();
    const created = await store(post('http://host/posts', { _id: 1, title: 'Hi' }));
    expect([created.status, created.headers.get('location')]).toEqual([201, '/posts/1']);
    const listed = await store(new Request('http://host/posts?title=Hi&$select=title'));
    expect(await listed.json()).toEqual([{ title: 'Hi' }]);
  });

  it.each([
    ['GET', 'http://host/-posts', true],
    ['GET', 'http://host/posts/1/comments/2', true],
    ['HEAD', 'http://host/-posts', false],
  ])('answers %s %s, not a resource route, with a 404 not_found problem', async (method, url, hasBody) => {
    const store = await storeWith();
    const reply = await store(new Request(url, { method }));
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toBe('application/problem+json');
    const text = await reply.text();
    expect(text === '' ? undefined : JSON.parse(text)?.code).toBe(hasBody ? 'not_found' : undefined);
  });

  it.each([
    ['both dialects', true, true],
    ['simple-rest', { simpleRest: true }, true],
    ['no foreign dialect', { jsonServer: false }, false],
    ['the default', undefined, false],
  ] as const)(
    'gives its own 404 a message, as detail, exactly when a foreign dialect is on (%s)',
    async (_, dialects, carries) => {
      const store = createStore({ db: createEmbeddedDb(), ...(dialects === undefined ? {} : { dialects }) });
      await store.ready;
      const problem = (await (await store(new Request('http://host/-posts'))).json()) as {
        detail?: string;
        message?: string;
      };
      expect(problem).toMatchObject({ status: 404, code: 'not_found' });
      expect(problem.message).toBe(carries ? problem.detail : undefined);
      await store.close();
    },
  );

  it('strips basePath, puts it in Location, and treats paths outside it as unmatched', async () => {
    const store = await storeWith({ basePath: '/api/v1' });
    const created = await store(post('http://host/api/v1/posts', { _id: 'a b' }));
    expect([created.status, created.headers.get('location')]).toEqual([201, '/api/v1/posts/a%20b']);
    expect((await store(new Request('http://host/api/v1/posts/a%20b'))).status).toBe(200);
    for (const url of ['http://host/posts', 'http://host/api/v1x/posts', 'http://host/api']) {
      expect((await store(new Request(url))).status, url).toBe(404);
    }
  });

  it('resolves null for unmatched requests with fallthrough: true, and still answers its routes', async () => {
    const store = createStore({ db: createEmbeddedDb() }, { basePath: '/api', fallthrough: true });
    expect(await store(new Request('http://host/other/posts'))).toBeNull();
    expect(await store(new Request('http://host/api/_private'))).toBeNull();
    expect((await store(new Request('http://host/api/posts')))?.status).toBe(200);
  });

  it('reads the raw query string, not a parsed one', async () => {
    const store = await storeWith();
    await store(post('http://host/items', { _id: 1, tags: ['a'] }));
    const reply = await store(new Request('http://host/items?tags[$ne]=x'));
    expect(reply.status).toBe(400);
  });

  it('hands getClientIp the request and the context the host passed beside it', async () => {
    const calls: unknown[] = [];
    const getClientIp = (request: Request, context: { ip: string } | undefined) => {
      calls.push([request.url, context]);
      return context?.ip;
    };
    const store = createStore({ db: createEmbeddedDb() }, { getClientIp });
    expect((await store(new Request('http://host/posts'), { ip: '203.0.113.9' })).status).toBe(200);
    expect(calls).toEqual([['http://host/posts', { ip: '203.0.113.9' }]]);
  });

  it.each([
    ['basePath', { basePath: '/api/' }],
    ['basePath', { basePath: 'api' }],
    ['fallthrough', { fallthrough: 'yes' }],
    ['getClientIp', { getClientIp: 'x-forwarded-for' }],
  ])('rejects an invalid %s option at once with invalid_config', (option, options) => {
    expect(() => createStore({ db: createEmbeddedDb() }, options as FetchStoreOptions)).toThrow(
      expect.objectContaining({ code: 'invalid_config', data: { option } }),
    );
  });

  it('does not mutate the options it is given', () => {
    const options = Object.freeze({ basePath: '/api' });
    createStore({ db: createEmbeddedDb() }, options);
    expect(options).toEqual({ basePath: '/api' });
  });
});
