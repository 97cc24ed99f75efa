import type { AddressInfo } from 'node:net';
import { createEmbeddedDb } from '@store/embedded';
import express from 'express';
import express4 from 'express4';
import { describe, expect, it } from 'vitest';
import { createStore } from './index';

/** One GET through an app where a middleware sets a header before the store answers. */
async function getThrough(framework: typeof express, path: string) {
  const app = framework();
  app.use((_req, res, next) => {
    res.setHeader('access-control-allow-origin', '*');
    next();
  });
  const store = createStore({ db: createEmbeddedDb() });
  await store.ready;
  app.use(store);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: response.status, headers: response.headers, body: await response.text() };
  } finally {
    server.close();
    await store.close();
  }
}

describe('createStore answers', () => {
  it.each([
    ['Express 5', express],
    ['Express 4', express4 as unknown as typeof express],
  ])('keep the headers earlier middleware set, with its own (%s)', async (_name, framework) => {
    const answer = await getThrough(framework, '/items');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('[]');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('content-length')).toBe('2');
  });
});
