import { describe, expect, it } from 'vitest';
import type { StoreRequest } from '../model/http';
import { createStoreHandler } from './handler';

function request(method: string, path: string, extra: Partial<StoreRequest> = {}): StoreRequest {
  return { method, path, rawQuery: '', headers: {}, ...extra };
}

describe('createStoreHandler', () => {
  it('answers null for a path that is not a resource route', async () => {
    const handle = createStoreHandler();
    expect(await handle(request('GET', '/_health'))).toBeNull();
    await handle.close();
  });

  it('answers an event-stream request as a plain list under realtime: false', async () => {
    const accept = { headers: { accept: 'text/event-stream' } };
    const off = createStoreHandler({ realtime: false });
    expect(await off(request('GET', '/posts', accept))).toMatchObject({ status: 200, body: '[]' });
    const on = createStoreHandler();
    const streamed = await on(request('GET', '/posts', accept));
    expect(streamed?.headers['content-type']).toMatch(/^text\/event-stream/);
    await Promise.all([off.close(), on.close()]);
  });

  it('answers HEAD without a body, errors included', async () => {
    const handle = createStoreHandler();
    const found = await handle(request('HEAD', '/posts'));
    const missing = await handle(request('HEAD', '/posts/1'));
    expect(found).toMatchObject({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(missing).toMatchObject({ status: 404, headers: { 'content-type': 'application/problem+json' } });
    expect([found?.body, missing?.body]).toEqual([undefined, undefined]);
    await handle.close();
  });

  it('reads a body given as a string, with the mount path in Location', async () => {
    const handle = createStoreHandler();
    const headers = { 'content-type': 'application/json' };
    const created = await handle(
      request('POST', '/posts', { headers, body: '{"_id":1}', mountPath: '/api/' }),
    );
    expect(created).toMatchObject({ status: 201, headers: { location: '/api/posts/1' }, body: '{"_id":1}' });
    await handle.close();
  });

  it('throws at creation for an invalid option', () => {
    expect(() => createStoreHandler({ maxLimit: 0 })).toThrow(/"maxLimit"/);
  });

  it('answers 500 internal when storage that is not a driver Db cannot start, and ready rejects', async () => {
    const logged: unknown[] = [];
    const logger = { error: (...args: unknown[]) => logged.push(args), warn: () => undefined };
    const failing = {
      collection: () => ({
        listIndexes: () => ({ toArray: () => Promise.reject(new Error('index failed')) }),
      }),
    };
    const handle = createStoreHandler({
      db: failing as never,
      logger,
      resources: { posts: { search: ['title'] } },
    });
    await expect(handle.ready).rejects.toThrow('index failed');
    expect(await handle(request('GET', '/posts'))).toMatchObject({ status: 500 });
    expect(logged.length).toBeGreaterThan(0);
    await handle.close();
  });
});
