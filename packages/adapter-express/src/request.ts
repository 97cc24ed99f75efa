/** Express's request as core's `StoreRequest`. */
import type { StoreRequest } from '@store/core';
import type { Request } from 'express';

function rawQuery(req: Request): string {
  const url = req.originalUrl ?? req.url;
  const mark = url.indexOf('?');
  return mark === -1 ? '' : url.slice(mark + 1);
}

/**
 * The request as core sees it. A body a host parser already consumed arrives parsed; otherwise
 * core reads the stream. `ip` is a getter: Express's `req.ip` walks `X-Forwarded-For` through
 * `trust proxy` on every read, and core reads the address only in its auth flows. A class, so
 * the getter lives on its prototype (an object literal with a getter costs ~25x more to build).
 */
class ExpressStoreRequest implements StoreRequest {
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly headers: StoreRequest['headers'];
  readonly body: StoreRequest['body'];
  readonly mountPath: string;
  readonly #req: Request;

  constructor(req: Request) {
    this.method = req.method;
    this.path = req.path;
    this.rawQuery = rawQuery(req);
    this.headers = req.headers;
    this.body = req.readableEnded ? { parsed: req.body } : req;
    this.mountPath = req.baseUrl;
    this.#req = req;
  }

  get ip(): string | undefined {
    return this.#req.ip ?? this.#req.socket.remoteAddress;
  }
}

/** Express's request as core's {@link StoreRequest} (see {@link ExpressStoreRequest}). */
export function toStoreRequest(req: Request): StoreRequest {
  return new ExpressStoreRequest(req);
}
