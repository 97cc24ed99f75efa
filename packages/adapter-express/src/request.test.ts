import type { AddressInfo } from 'node:net';
import express, { type Request } from 'express';
import { describe, expect, it } from 'vitest';
import { toStoreRequest } from './request';

/** The store request an Express 5 app with `trust proxy` builds for one request with `headers`. */
async function storeRequestFor(headers: Record<string, string>) {
  const app = express();
  app.set('trust proxy', true);
  let seen: { ip: string | undefined; path: string; rawQuery: string } | undefined;
  app.get('/items', (req, res) => {
    const request = toStoreRequest(req);
    seen = { ip: request.ip, path: request.path, rawQuery: request.rawQuery };
    res.end();
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}/items?a=1`, { headers });
    return seen;
  } finally {
    server.close();
  }
}

describe('toStoreRequest', () => {
  it.each([
    ['the client address behind a trusted proxy', { 'x-forwarded-for': '203.0.113.7' }, '203.0.113.7'],
    ['the socket address without a proxy header', {}, '127.0.0.1'],
  ])('gives core %s', async (_title, headers, ip) => {
    expect(await storeRequestFor(headers)).toEqual({ ip, path: '/items', rawQuery: 'a=1' });
  });

  it("reads Express's req.ip only when core asks for it", () => {
    let reads = 0;
    const req = {
      method: 'GET',
      path: '/items',
      url: '/items',
      headers: {},
      readableEnded: false,
      baseUrl: '',
      socket: { remoteAddress: '10.0.0.2' },
      get ip() {
        reads += 1;
        return '10.0.0.1';
      },
    } as unknown as Request;
    const request = toStoreRequest(req);
    expect(reads).toBe(0);
    expect(request.ip).toBe('10.0.0.1');
    expect(reads).toBe(1);
  });
});
