import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Example, freePort, startExample } from '../../test-support/start-example';

const serverFile = fileURLToPath(new URL('../src/server.js', import.meta.url));

describe('example server', () => {
  let base = '';
  let example: Example;

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

  it('prints the code of POST /auth/magic-code/ to stdout (no SMTP_URL); verifying it gives a session /auth/session accepts', async () => {
    const json = { 'content-type': 'application/json' };
    const asked = await fetch(`${base}/auth/magic-code/`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(asked.status).toBe(202);
    const [, code] = await example.waitFor(/mail to ada@example\.com\nSubject: [^\n]*\n\n(\d{6})\n/);

    const verified = await fetch(`${base}/auth/magic-code/verify`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'ada@example.com', code }),
    });
    expect(verified.status).toBe(200);
    const session = (await verified.json()) as { token: string; user: { email: string } };
    expect(session.user.email).toBe('ada@example.com');

    const current = await fetch(`${base}/auth/session`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(current.status).toBe(200);
    expect(await current.json()).toMatchObject({ user: { email: 'ada@example.com' } });
  });

  it('prints the sign-in link of POST /auth/magic-link/, built from BASE_URL (here http://HOST:PORT)', async () => {
    const asked = await fetch(`${base}/auth/magic-link/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bob@example.com' }),
    });
    expect(asked.status).toBe(202);
    const [, link] = await example.waitFor(/mail to bob@example\.com\nSubject: [^\n]*\n\n(\S+)\n/);
    expect(link).toMatch(new RegExp(`^${base}/auth/magic-link/[\\w-]{43}$`));
    const opened = await fetch(link ?? '', { redirect: 'manual' });
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({ user: { email: 'bob@example.com' } });
  });

  it('serves the users collection only to signed-in users, each their own document', async () => {
    expect((await fetch(`${base}/users`)).status).toBe(401);
  });
});
