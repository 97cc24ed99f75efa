/**
 * The command's HTTP server: plain `node:http` in front of core's handler (no web framework in
 * the way). A path the store does not answer is a 404 problem. Bound to a loopback address, it
 * first checks the request's `Host` (DNS rebinding); bound to any other, it answers every `Host`.
 * With a foreign client dialect on, its own problems carry `message` as the store's do.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { StoreError } from '@store/common';
import {
  renderError,
  type StoreHandler,
  type StoreRequest,
  storeError,
  writeNodeResponse,
} from '@store/core';
import { isLoopbackAddress } from './loopback';

function toStoreRequest(req: IncomingMessage): StoreRequest {
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  return {
    method: req.method ?? 'GET',
    path: mark === -1 ? url : url.slice(0, mark),
    rawQuery: mark === -1 ? '' : url.slice(mark + 1),
    headers: req.headers,
    body: req,
    ip: req.socket.remoteAddress,
  };
}

const logger = { error: (...args: unknown[]) => console.error(...args), warn: () => undefined };

/** Whether `server` listens on a loopback address (known once it listens). */
export function onLoopback(server: Server): boolean {
  const address = server.address();
  return typeof address === 'object' && address !== null && isLoopbackAddress(address.address);
}

/**
 * A server answering every request with `handler`; while it listens on a loopback address, a
 * request `checkHost` refuses (by its `Host` header) gets that error instead. `withMessage`
 * (a foreign dialect is on): the problems the server answers itself also carry `message`.
 */
export function storeServer(
  handler: StoreHandler,
  checkHost: (host: string | undefined) => StoreError | undefined,
  withMessage = false,
): Server {
  let loopback = false;
  const problem = (error: unknown) => renderError(error, logger, withMessage);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const refused = loopback ? checkHost(req.headers.host) : undefined;
    if (refused !== undefined) {
      writeNodeResponse(res, problem(refused));
      return;
    }
    const request = toStoreRequest(req);
    // One reaction per request, not a chain of three (renderError does not throw).
    handler(request).then(
      (answer) =>
        writeNodeResponse(
          res,
          answer ?? problem(storeError('not_found', `Nothing is served at ${request.path.slice(0, 200)}.`)),
        ),
      (error: unknown) => writeNodeResponse(res, problem(error)),
    );
  });
  server.on('listening', () => {
    loopback = onLoopback(server);
  });
  return server;
}

/** Listens on `port` and `host`, or fails with a message a person can act on. */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      server.off('listening', listening);
      reject(error);
    };
    const listening = () => {
      server.off('error', failed);
      resolve();
    };
    server.once('error', failed);
    server.once('listening', listening);
    server.listen(port, host);
  });
}
