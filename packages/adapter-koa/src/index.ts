/**
 * `@store/adapter-koa`: mounts `@store` in Koa 2 or 3. It only translates between Koa's
 * context and the framework-agnostic handler of `@store/core`; every route lives in core.
 */

import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import {
  createStoreHandler,
  type StoreConfig,
  type StoreRequest,
  type StoreRequestBody,
  type StoreResponse,
} from '@store/core';
import type { ParameterizedContext as Context, Middleware, Next } from 'koa';

/** Koa middleware serving the store, with the handler's lifecycle passed through. */
export interface StoreMiddleware extends Middleware {
  /** Settles when storage is open and indexes are ensured; rejects when that failed. */
  readonly ready: Promise<void>;
  /** Closes a database client the store opened itself. */
  close(): Promise<void>;
}

/**
 * Where the store is mounted: what `koa-mount` (once or nested) cut off the front of the
 * original path, so `Location` carries the full prefix. `''` at the root.
 */
function mountPath(ctx: Context): string | undefined {
  const original = ctx.originalUrl.split('?', 1)[0] ?? '';
  return original.endsWith(ctx.path) ? original.slice(0, original.length - ctx.path.length) : undefined;
}

/**
 * The body as core sees it: the stream itself, unless a body parser in front consumed it.
 * Then the raw text it kept (`ctx.request.rawBody`, set by `@koa/bodyparser` and
 * `koa-bodyparser`) is read by core's own rules, or else the value it left in `ctx.request.body`.
 */
function body(ctx: Context): StoreRequestBody {
  if (!ctx.req.readableEnded) return ctx.req;
  const { rawBody, body: parsed } = ctx.request as { rawBody?: unknown; body?: unknown };
  return typeof rawBody === 'string' ? rawBody : { parsed };
}

/** The request as core sees it, with the raw query string (never Koa's parsed `ctx.query`). */
function toStoreRequest(ctx: Context): StoreRequest {
  return {
    method: ctx.method,
    path: ctx.path,
    rawQuery: ctx.querystring,
    headers: ctx.headers,
    body: body(ctx),
    ip: ctx.ip,
    mountPath: mountPath(ctx),
  };
}

/**
 * Writes the answer through Koa's response, so middleware upstream still sees status and
 * headers. An absent body (204, HEAD, a redirect) is an explicit empty body: Koa would
 * otherwise answer the status text, and keeps the `Content-Length` core gave a HEAD.
 */
function send(ctx: Context, response: StoreResponse): void {
  // Koa pipes a stream body and destroys it (cancelling the web stream) when the client goes away.
  ctx.body =
    response.stream === undefined ? (response.body ?? null) : Readable.fromWeb(response.stream as WebStream);
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
}

/**
 * Creates the store as Koa middleware: `app.use(createStore(config))`, or at a prefix with
 * `app.use(mount('/api', createStore(config)))` (`koa-mount`). Requests that name no
 * resource route go to `next()`; unexpected failures reject, for Koa's error handling.
 * Throws at once, naming the option, when `config` is invalid.
 */
export function createStore(config: StoreConfig = {}): StoreMiddleware {
  const handler = createStoreHandler(config);
  const middleware = async (ctx: Context, next: Next): Promise<void> => {
    const response = await handler(toStoreRequest(ctx));
    if (response) send(ctx, response);
    else await next();
  };
  return Object.assign(middleware, { ready: handler.ready, close: () => handler.close() });
}

export type { StoreConfig } from '@store/core';
