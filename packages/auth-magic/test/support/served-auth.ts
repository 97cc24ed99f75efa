/**
 * A store with passwordless login served on 127.0.0.1 under `/api`, its `baseUrl` that very
 * address (as in production: the links a mail carries open this server), for tests that act as
 * browsers: cookies kept by hand, the headers a browser sends.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StoreDb } from '@store/common';
import { createStoreHandler, type StoreHandler, type StoreRequest, writeNodeResponse } from '@store/core';
import { magicAuth, type UserAuthConfig } from '../../src/index';
import { type CapturingMailer, createCapturingMailer } from '../../src/testing';

export const MOUNT = '/api';

/** A Node request as core's plain `StoreRequest`, for a store mounted at {@link MOUNT} (as an adapter would build it). */
export function storeRequestOf(req: IncomingMessage): StoreRequest {
  const url = new URL(req.url ?? '/', 'http://localhost');
  return {
    method: req.method ?? 'GET',
    path: url.pathname.slice(MOUNT.length),
    rawQuery: url.search,
    headers: req.headers,
    body: req,
    ip: req.socket.remoteAddress,
    mountPath: MOUNT,
  };
}

/** What {@link serveAuth} returns. */
export interface ServedAuth {
  /** `http://127.0.0.1:<port>`: the store's origin. */
  origin: string;
  /** The store's address: `<origin>/api` (its `baseUrl`). */
  url: string;
  db: StoreDb;
  mailer: CapturingMailer;
  close(): Promise<void>;
}

/** Serves a store with `magicCode` on (generous send limits unless `auth` sets its own) and `notes` for signed-in users. */
export async function serveAuth(db: StoreDb, auth: UserAuthConfig = {}): Promise<ServedAuth> {
  const mailer = createCapturingMailer();
  let store: StoreHandler | undefined;
  const server = createServer((req, res) => {
    const inside = (req.url ?? '/').startsWith(`${MOUNT}/`);
    const answer = inside && store !== undefined ? store(storeRequestOf(req)) : null;
    Promise.resolve(answer).then((done) =>
      done === null ? res.writeHead(404).end() : writeNodeResponse(res, done),
    );
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const handler = createStoreHandler({
    db,
    baseUrl: `${origin}${MOUNT}`,
    secret: 'code-link-csrf-secret-0123456789',
    logger: { error: console.error, warn: () => undefined },
    plugins: [magicAuth],
    resources: {
      user: {
        auth: {
          magicCode: {},
          mailer,
          rateLimit: { perAddress: { max: 1000 }, perIp: { max: 1000 } },
          ...auth,
        },
      },
      notes: { access: 'owner' },
    },
  });
  await handler.ready;
  store = handler;
  return {
    origin,
    url: `${origin}${MOUNT}`,
    db,
    mailer,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await handler.close();
    },
  };
}

/** The `name=value` pair a `Set-Cookie` header sets for `name`, ready for a `Cookie` header; `undefined` without one. */
export function setCookie(response: Response, name: string): string | undefined {
  const header = response.headers.get('set-cookie') ?? '';
  return new RegExp(`(?:^|,\\s*)(${name}=[^;]*)`).exec(header)?.[1];
}

/** The headers a browser sends when a page of `site` (`cross-site`, `same-origin`, ...) navigates it to a URL. */
export const navigation = (site: string) => ({
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'sec-fetch-site': site,
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  'user-agent': 'Mozilla/5.0 (test browser)',
});
