import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createEmbeddedDb } from '@store/embedded';
import Koa from 'koa';
import mount from 'koa-mount';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../src/index';

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

async function listen(app: Koa): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function postJson(url: string, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A body parser keeping no raw text, only the parsed value (as some parsers do). */
const parsedOnly: Koa.Middleware = async (ctx, next) => {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  ctx.request.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  await next();
};

describe('createStore (Koa)', () => {
  it('puts every mount prefix of nested koa-mount calls in Location', async () => {
    const store = createStore({ db: createEmbeddedDb() });
    const inner = new Koa();
    inner.use(mount('/v1', store));
    const app = new Koa();
    app.use(mount('/api', inner));
    const base = await listen(app);
    const reply = await postJson(`${base}/api/v1/posts?x=1`, { _id: 7 });
    expect([reply.status, reply.headers.get('location')]).toEqual([201, '/api/v1/posts/7']);
    expect(await (await fetch(`${base}/api/v1/posts/7`)).json()).toEqual({ _id: 7 });
  });

  it('takes the parsed ctx.request.body when a parser consumed the stream without keeping raw text', async () => {
    const store = createStore({ db: createEmbeddedDb() });
    const app = new Koa();
    app.use(parsedOnly);
    app.use(store);
    const base = await listen(app);
    const created = await postJson(`${base}/items`, { _id: 1, at: { $date: '2024-01-02T03:04:05Z' } });
    expect(await created.json()).toEqual({ _id: 1, at: '2024-01-02T03:04:05.000Z' });
    const refused = await postJson(`${base}/items`, { _id: 2, bad: { $where: 'x' } });
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([
      400,
      'invalid_body',
    ]);
  });

  it('lets upstream middleware see the status and headers it answered', async () => {
    const store = createStore({ db: createEmbeddedDb() });
    const seen: unknown[] = [];
    const app = new Koa();
    app.use(async (ctx, next) => {
      await next();
      seen.push([ctx.status, ctx.response.get('content-type')]);
    });
    app.use(store);
    const base = await listen(app);
    await fetch(`${base}/items/404`);
    expect(seen).toEqual([[404, 'application/problem+json']]);
  });

  it('answers a 204 with no body and no content-type', async () => {
    const store = createStore({ db: createEmbeddedDb() });
    const app = new Koa();
    app.use(store);
    const base = await listen(app);
    await postJson(`${base}/items`, { _id: 1 });
    const reply = await fetch(`${base}/items/1`, { method: 'DELETE' });
    expect([reply.status, reply.headers.get('content-type'), await reply.text()]).toEqual([204, null, '']);
  });
});
