/**
 * `@store/adapter-fetch`: serves `@store` from any host speaking Web-standard `Request` and
 * `Response` (Hono, Next.js route handlers, Bun, Deno). It only translates between them and
 * the framework-agnostic handler of `@store/core`.
 */
import {
  createStoreHandler,
  renderError,
  type StoreConfig,
  type StoreRequest,
  type StoreResponse,
  storeError,
} from '@store/core';
import { type FetchStoreOptions, type ResolvedFetchStoreOptions, resolveFetchStoreOptions } from './options';

/** The store as a fetch handler, with the core handler's lifecycle passed through. */
export interface FetchStore<Answer extends Response | null = Response> {
  (request: Request): Promise<Answer>;
  /** Settles when storage is open and indexes are ensured; rejects when that failed. */
  readonly ready: Promise<void>;
  /** Closes a database client the store opened itself. */
  close(): Promise<void>;
}

/** The path below `basePath`, still percent-encoded; `undefined` when outside it. */
function pathBelow(pathname: string, basePath: string): string | undefined {
  if (pathname === basePath) return '/';
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined;
}

/** The request as core sees it: lower-case header names (as `Headers` has them) on a prototype-free object. */
function toStoreRequest(request: Request, path: string, options: ResolvedFetchStoreOptions): StoreRequest {
  const headers: Record<string, string> = Object.create(null);
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const { search: rawQuery } = new URL(request.url);
  const ip = options.getClientIp(request);
  return {
    method: request.method,
    path,
    rawQuery,
    headers,
    body: request.body ?? undefined,
    ip,
    mountPath: options.basePath,
  };
}

/** Every header, a list value (several `Set-Cookie`) as several lines. */
function toResponse(response: StoreResponse): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const line of Array.isArray(value) ? value : [value]) headers.append(name, line);
  }
  return new Response(response.body ?? null, { status: response.status, headers });
}

function notFound(request: Request): Response {
  const error = storeError('not_found', 'No resource route of the store matches this path.');
  const { status, headers, body } = renderError(error, console);
  return toResponse(
    request.method.toUpperCase() === 'HEAD' ? { status, headers } : { status, headers, body },
  );
}

/**
 * Creates the store as a fetch handler: `(request) => Promise<Response>`. Unmatched requests
 * (outside `basePath`, or naming no resource route) answer a 404 problem (`not_found`), or
 * `null` with `fallthrough: true`. Throws at once, naming the option, when `config` or
 * `options` is invalid.
 */
export function createStore(
  config: StoreConfig | undefined,
  options: FetchStoreOptions & { fallthrough: true },
): FetchStore<Response | null>;
export function createStore(
  config?: StoreConfig,
  options?: FetchStoreOptions & { fallthrough?: false },
): FetchStore<Response>;
export function createStore(config?: StoreConfig, options?: FetchStoreOptions): FetchStore<Response | null>;
export function createStore(config: StoreConfig = {}, options: FetchStoreOptions = {}) {
  const resolved = resolveFetchStoreOptions(options);
  const handler = createStoreHandler(config);
  const unmatched = (request: Request) => (resolved.fallthrough ? null : notFound(request));
  const fetchStore = async (request: Request): Promise<Response | null> => {
    const path = pathBelow(new URL(request.url).pathname, resolved.basePath);
    if (path === undefined) return unmatched(request);
    const response = await handler(toStoreRequest(request, path, resolved));
    return response ? toResponse(response) : unmatched(request);
  };
  return Object.assign(fetchStore, { ready: handler.ready, close: () => handler.close() });
}

export type { StoreConfig } from '@store/core';
export type { FetchStoreOptions, ResolvedFetchStoreOptions } from './options';
export { resolveFetchStoreOptions } from './options';
