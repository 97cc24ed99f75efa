import type { AuthDeps } from '@store/auth-magic';
import type { ResolvedStoreOptions } from '../options';
import { renderError } from '../render-error';
import { respond } from '../respond';
import type { StoreRequest, StoreResponse } from '../types';
import { type AuthResult, createAuthContext } from './context';
import { authRouteFor, matchAuthRoute } from './route-table';

/** Serializes an auth route's answer: JSON through core's `respond`, or the HTML page. */
function serialize(result: AuthResult): StoreResponse {
  if (result.html === undefined) return respond(result);
  const headers: Record<string, string> = {
    'content-type': 'text/html; charset=utf-8',
    ...result.headers,
    'content-length': String(Buffer.byteLength(result.html)),
  };
  return { status: result.status, headers, body: result.html };
}

/**
 * Answers a request for an auth route (contract section 8), or `null` when the path names none
 * (or auth is not configured). Every answer, errors included, is `Cache-Control: no-store`: they
 * carry sessions, or reveal whether a secret is live.
 */
export async function answerAuth(
  request: StoreRequest,
  options: ResolvedStoreOptions,
  storage: Promise<{ readonly auth: AuthDeps | null }>,
): Promise<StoreResponse | null> {
  const match = options.auth === null ? undefined : matchAuthRoute(request.path, options.auth.options);
  if (match === undefined) return null;
  let response: StoreResponse;
  try {
    const route = authRouteFor(match, request.method);
    const { auth } = await storage;
    if (auth === null) throw new Error('auth deps missing although auth is configured');
    response = serialize(await route(createAuthContext(request, options, auth, match.params)));
  } catch (error) {
    response = renderError(error, options.logger);
  }
  response.headers['cache-control'] = 'no-store';
  return response;
}
