/**
 * CORS for the store's routes, off unless `cors` is set: a preflight
 * (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from an allowed origin answers
 * 204 with what may follow; every answer to an allowed origin carries
 * `Access-Control-Allow-Origin` and exposes the headers a client reads. A preflight from an
 * origin that is not allowed answers 403 `origin_not_allowed`; other requests from it get no
 * CORS header (the browser then keeps the answer from the page).
 */

import { storeError } from '../model/error-codes';
import type { StoreRequest, StoreResponse } from '../model/http';
import type { ResolvedCors } from '../model/options';

/** Headers a client reads, exposed to scripts of another origin. */
const EXPOSED_HEADERS = [
  'X-Total-Count',
  'Link',
  'Content-Range',
  'ETag',
  'Location',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
].join(', ');
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].join(', ');
/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';

function header(request: StoreRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether `request` is a CORS preflight. */
export function isPreflight(request: StoreRequest): boolean {
  return (
    request.method === 'OPTIONS' &&
    header(request, 'origin') !== undefined &&
    header(request, 'access-control-request-method') !== undefined
  );
}

/** Whether `origin` may call: any, one of the list, or one the function allows (resolved safe in `cors-option.ts`). */
function allows(cors: ResolvedCors, origin: string): boolean {
  if (cors.origins === '*') return true;
  return typeof cors.origins === 'function' ? cors.origins(origin) : cors.origins.has(origin);
}

/** The CORS headers of an answer to `origin`, or none when it is not allowed. */
function originHeaders(origin: string | undefined, cors: ResolvedCors): Record<string, string> | undefined {
  if (origin === undefined || !allows(cors, origin)) return undefined;
  const any = cors.origins === '*';
  // `*` cannot carry credentials: then the origin is echoed, and the answer varies with it.
  const echo = !any || cors.credentials;
  return {
    'access-control-allow-origin': echo ? origin : '*',
    ...(echo ? { vary: 'Origin' } : {}),
    ...(cors.credentials ? { 'access-control-allow-credentials': 'true' } : {}),
  };
}

/** Answers a preflight: 204 with what the origin may send, or 403 `origin_not_allowed`. */
export function answerPreflight(request: StoreRequest, cors: ResolvedCors): StoreResponse {
  const origin = header(request, 'origin');
  const allowed = originHeaders(origin, cors);
  if (allowed === undefined) {
    throw storeError(
      'origin_not_allowed',
      `The origin ${origin} may not call this store (see the cors option).`,
    );
  }
  const requested = header(request, 'access-control-request-headers');
  return {
    status: 204,
    headers: {
      ...allowed,
      'access-control-allow-methods': ALLOWED_METHODS,
      ...(requested ? { 'access-control-allow-headers': requested } : {}),
      'access-control-max-age': PREFLIGHT_MAX_AGE,
    },
  };
}

/** `response` with the CORS headers its request's origin may see. */
export function withCorsHeaders(
  request: StoreRequest,
  response: StoreResponse,
  cors: ResolvedCors,
): StoreResponse {
  const allowed = originHeaders(header(request, 'origin'), cors);
  if (allowed === undefined) return response;
  const vary = [response.headers.vary, allowed.vary].filter(Boolean).join(', ');
  return {
    ...response,
    headers: {
      ...response.headers,
      ...allowed,
      ...(vary ? { vary } : {}),
      'access-control-expose-headers': EXPOSED_HEADERS,
    },
  };
}
