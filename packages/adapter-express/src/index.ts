/**
 * `@store/adapter-express`: mounts `@store` in Express 4 or 5. It only translates between
 * Express and the framework-agnostic handler of `@store/core`; every route lives in core.
 */
import { createStoreHandler, type StoreConfig, writeNodeResponse } from '@store/core';
import type { NextFunction, Request, Response } from 'express';
import { toStoreRequest } from './request';

/** Express middleware serving the store, with the handler's lifecycle passed through. */
export interface StoreMiddleware {
  (req: Request, res: Response, next: NextFunction): void;
  /** Settles when storage is open and indexes are ensured; rejects when that failed. */
  readonly ready: Promise<void>;
  /** Closes a database client the store opened itself. */
  close(): Promise<void>;
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
      .then((response) => (response ? writeNodeResponse(res, response) : next()))
      .catch(next);
  };
  return Object.assign(middleware, { ready: handler.ready, close: () => handler.close() });
}

export type { StoreConfig } from '@store/core';
