import { createStoreHandler, type StoreConfig, type StoreHandler, type StoreRequest } from '@store/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openapi } from './plugin';

const handlers: StoreHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handle) => handle.close()));
});

function store(config: StoreConfig = { plugins: [openapi()] }) {
  const handle = createStoreHandler(config);
  handlers.push(handle);
  return (method: string, path: string, headers: StoreRequest['headers'] = {}) =>
    handle({ method, path, rawQuery: '', headers, mountPath: '/api' });
}

describe('the API description routes', () => {
  it("are not the store's without the plugin", async () => {
    const request = store({});
    expect(await request('GET', '/openapi.json')).toBeNull();
    expect(await request('GET', '/docs/swagger-ui-bundle.js')).toMatchObject({ status: 404 });
    // `docs` is then an ordinary resource name.
    expect(await request('GET', '/docs')).toMatchObject({ status: 200, body: '[]' });
  });

  it('refuse the removed openapi store option, naming the plugin', () => {
    const legacy: Record<string, unknown> = { openapi: true };
    expect(() => createStoreHandler(legacy as StoreConfig)).toThrow(
      expect.objectContaining({
        code: 'invalid_config',
        option: 'openapi',
        message: expect.stringContaining('plugins: [openapi()]'),
      }),
    );
  });

  it('shadow a resource named docs: /docs is the page, and /docs/<id> is not a document', async () => {
    const request = store({ plugins: [openapi()], resources: { docs: { access: 'public' } } });
    expect(await request('GET', '/docs')).toMatchObject({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    expect(await request('GET', '/docs/1')).toMatchObject({ status: 404 });
    expect(await request('POST', '/docs')).toMatchObject({ status: 405 });
  });

  it('answer a CORS preflight for /openapi.json from an allowed origin', async () => {
    const request = store({ plugins: [openapi()], cors: { origins: ['https://app.example'] } });
    const preflight = await request('OPTIONS', '/openapi.json', {
      origin: 'https://app.example',
      'access-control-request-method': 'GET',
    });
    expect(preflight).toMatchObject({
      status: 204,
      headers: { 'access-control-allow-origin': 'https://app.example' },
    });
  });

  it('answer /openapi.json with a weak ETag, and 304 when it still holds', async () => {
    const request = store();
    const answer = await request('GET', '/openapi.json');
    expect(answer).toMatchObject({
      status: 200,
      headers: { 'cache-control': 'no-cache', etag: expect.stringMatching(/^W\//) },
    });
    const again = await request('GET', '/openapi.json', { 'if-none-match': answer?.headers.etag });
    expect(again).toMatchObject({ status: 304 });
    const head = await request('HEAD', '/openapi.json');
    expect([head?.status, head?.body]).toEqual([200, undefined]);
  });

  it('serve /docs as a page whose every URL is relative to the mount path', async () => {
    const page = await store({ plugins: [openapi({ title: 'Notes <&> API' })] })('GET', '/docs');
    expect(page).toMatchObject({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
    const urls = [...(page?.body ?? '').matchAll(/(?:src|href|data-url)="([^"]*)"/g)].map((m) => m[1]);
    expect(urls).toEqual([
      'data:,',
      expect.stringMatching(/^docs\/swagger-ui\.css\?v=\d+\.\d+\.\d+$/),
      'openapi.json',
      expect.stringMatching(/^docs\/swagger-ui-bundle\.js\?v=/),
      'docs/docs.js',
    ]);
    expect(page?.body).toContain('<title>Notes &lt;&amp;&gt; API</title>');
    expect(page?.body).not.toMatch(/<script>|https?:/);
  });

  it('serve the renderer files for a year, and its start script', async () => {
    const request = store();
    const bundle = await request('GET', '/docs/swagger-ui-bundle.js');
    expect(bundle).toMatchObject({
      status: 200,
      headers: {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=31536000, immutable',
      },
    });
    expect(Number(bundle?.headers['content-length'])).toBeGreaterThan(1_000_000);
    expect(await request('GET', '/docs/swagger-ui.css')).toMatchObject({
      status: 200,
      headers: { 'content-type': 'text/css; charset=utf-8' },
    });
    const script = await request('GET', '/docs/docs.js');
    expect(script?.body).toContain('SwaggerUIBundle(');
  });

  it('redirect /docs/ to /docs, refuse other methods and answer 404 for other files under /docs', async () => {
    const request = store();
    expect(await request('GET', '/docs/')).toMatchObject({ status: 301, headers: { location: '../docs' } });
    expect(await request('POST', '/docs')).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD' } });
    expect(await request('DELETE', '/openapi.json')).toMatchObject({ status: 405 });
    const missing = await request('GET', '/docs/1');
    expect(missing).toMatchObject({ status: 404, headers: { 'content-type': 'application/problem+json' } });
    expect(await request('GET', '/posts')).toMatchObject({ status: 200 });
  });
});
