import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startExample } from '../../test-support/start-example';

const serverFile = fileURLToPath(new URL('../src/server.js', import.meta.url));

describe('Koa example', () => {
  let base = '';
  let example: Awaited<ReturnType<typeof startExample>>;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    example = await startExample(serverFile, port);
  });

  afterAll(() => {
    example?.child.kill('SIGTERM');
  });

  it('prints its address and the embedded engine', () => {
    expect(example.output()).toContain(`listening on ${base}`);
    expect(example.output()).toContain('engine: embedded');
  });

  it('serves an empty collection, then the document a POST created', async () => {
    expect(await (await fetch(`${base}/posts`)).json()).toEqual([]);

    const created = await fetch(`${base}/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Hello', views: 12 }),
    });
    expect(created.status).toBe(201);
    const post = (await created.json()) as { _id: string };
    expect(created.headers.get('location')).toBe(`${base}/posts/${post._id}`);

    const listed = await (await fetch(`${base}/posts?views:gt=10`)).json();
    expect(listed).toEqual([post]);
  });

  it('answers bad input with a problem, like every adapter', async () => {
    const reply = await fetch(`${base}/posts?$where=1`);
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await reply.json()) as { code: string }).code).toBe('unknown_parameter');
  });
});
