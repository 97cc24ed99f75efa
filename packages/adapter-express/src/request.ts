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
 * `trust proxy` on every read, and core reads the address only in its auth flows.
 */
export function toStoreRequest(req: Request): StoreRequest {
  return {
    method: req.method,
    path: req.path,
    rawQuery: rawQuery(req),
    headers: req.headers,
    body: req.readableEnded ? { parsed: req.body } : req,
    get ip() {
      return req.ip ?? req.socket.remoteAddress;
    },
    mountPath: req.baseUrl,
  };
}
