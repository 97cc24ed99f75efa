/**
 * `@store/adapter-express`: mounts `@store` in Express 4 or 5. It only translates between
 * Express and the framework-agnostic handler of `@store/core`; every route lives in core.
 */
import { createStoreHandler, type StoreConfig, type StoreRequest, type StoreResponse } from '@store/core';
import type { NextFunction, Request, Response } from 'express';

/** Express middleware serving the store, with the handler's lifecycle passed through. */
export interface StoreMiddleware {
  (req: Request, res: Response, next: NextFunction): void;
  /** Settles when storage is open and indexes are ensured; rejects when that failed. */
  readonly ready: Promise<void>;
  /** Closes a database client the store opened itself. */
  close(): Promise<void>;
}

function rawQuery(req: Request): string {
  const url = req.originalUrl ?? req.url;
  const mark = url.indexOf('?');
  return mark === -1 ? '' : url.slice(mark + 1);
}

/** The request as core sees it. A body a host parser already consumed arrives parsed; otherwise core reads the stream. */
function toStoreRequest(req: Request): StoreRequest {
  return {
    method: req.method,
    path: req.path,
    rawQuery: rawQuery(req),
    headers: req.headers,
    body: req.readableEnded ? { parsed: req.body } : req,
    ip: req.ip ?? req.socket.remoteAddress,
    mountPath: req.baseUrl,
  };
}

function send(res: Response, response: StoreResponse): void {
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.end(response.body);
}

/**
 * Creates the store as Express middleware: `app.use('/api', createStore(config))`. Requests
 * that name no resource route go to `next()`; only unexpected failures go to `next(err)`.
 * Throws at once, naming the option, when `config` is invalid.
 */
export function createStore(config: StoreConfig = {}): StoreMiddleware {
  const handler = createStoreHandler(config);
  const middleware = (req: Request, res: Response, next: NextFunction): void => {
    handler(toStoreRequest(req))
      .then((response) => (response ? send(res, response) : next()))
      .catch(next);
  };
  return Object.assign(middleware, { ready: handler.ready, close: () => handler.close() });
}

export type { StoreConfig } from '@store/core';
