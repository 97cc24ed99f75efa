/**
 * `@store/adapter-fetch`: serves `@store` from any host speaking Web-standard `Request` and
 * `Response` (Hono, Next.js route handlers, Bun, Deno). It only translates between them and
 * the framework-agnostic handler of `@store/core`.
 */
import {
  createStoreHandler,
  renderError,
  resolveDialects,
  type StoreConfig,
  type StoreRequest,
  type StoreResponse,
  storeError,
} from '@store/core';
import { type FetchStoreOptions, type ResolvedFetchStoreOptions, resolveFetchStoreOptions } from './options';

/** The store as a fetch handler (`context`: see `getClientIp`), with the core handler's lifecycle. */
export interface FetchStore<Answer extends Response | null = Response, Context = unknown> {
  (request: Request, context?: Context): Promise<Answer>;
  /** Settles when storage is open and indexes are ensured; rejects when that failed. */
  readonly ready: Promise<void>;
  /** Closes a database client the store opened itself. */
  close(): Promise<void>;
}

/** The request as core sees it (lower-case header names on a prototype-free object), or `undefined` outside `basePath`. */
function toStoreRequest<C>(request: Request, context: C | undefined, options: ResolvedFetchStoreOptions<C>) {
  const { pathname, search } = new URL(request.url);
  const { basePath } = options;
  if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return undefined;
  const headers: Record<string, string> = Object.create(null);
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    method: request.method,
    path: pathname.slice(basePath.length) || '/',
    rawQuery: search,
    headers,
    body: request.body ?? undefined,
    ip: options.getClientIp(request, context),
    mountPath: basePath,
  } satisfies StoreRequest;
}

/** Every header, a list value (several `Set-Cookie`) as several lines. */
function toResponse(response: StoreResponse): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const line of Array.isArray(value) ? value : [value]) headers.append(name, line);
  }
  return new Response(response.stream ?? response.body ?? null, { status: response.status, headers });
}

/** The 404 of an unmatched request; with a foreign dialect on, its problem carries `message` too. */
function notFound(request: Request, withMessage: boolean): Response {
  const error = storeError('not_found', 'No resource route of the store matches this path.');
  const { status, headers, body } = renderError(error, console, withMessage);
  return toResponse(
    request.method.toUpperCase() === 'HEAD' ? { status, headers } : { status, headers, body },
  );
}

/**
 * Creates the store as a fetch handler: `(request, context?) => Promise<Response>`. Unmatched
 * requests (outside `basePath`, or naming no resource route) answer a 404 problem
 * (`not_found`), or `null` with `fallthrough: true`. Throws at once, naming the option, when
 * `config` or `options` is invalid.
 */
export function createStore<C = unknown>(
  config: StoreConfig | undefined,
  options: FetchStoreOptions<C> & { fallthrough: true },
): FetchStore<Response | null, C>;
export function createStore<C = unknown>(
  config?: StoreConfig,
  options?: FetchStoreOptions<C> & { fallthrough?: false },
): FetchStore<Response, C>;
export function createStore<C>(
  config?: StoreConfig,
  options?: FetchStoreOptions<C>,
): FetchStore<Response | null, C>;
export function createStore<C>(config: StoreConfig = {}, options: FetchStoreOptions<C> = {}) {
  const resolved = resolveFetchStoreOptions(options);
  const handler = createStoreHandler(config);
  // Checked by createStoreHandler above: read again only for the adapter's own 404.
  const { foreign } = resolveDialects(config.dialects);
  const fetchStore = async (request: Request, context?: C): Promise<Response | null> => {
    const storeRequest = toStoreRequest(request, context, resolved);
    const response = storeRequest && (await handler(storeRequest));
    if (response) return toResponse(response);
    return resolved.fallthrough ? null : notFound(request, foreign);
  };
  return Object.assign(fetchStore, { ready: handler.ready, close: () => handler.close() });
}

export type { StoreConfig } from '@store/core';
export type { FetchStoreOptions, ResolvedFetchStoreOptions } from './options';
