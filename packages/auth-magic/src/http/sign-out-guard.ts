import { isJsonContentType } from '@store/core';
import { AuthError } from '../errors';
import { header } from '../session-http';
import type { AuthRouteContext } from './context';

/** Whether a header name is one a form cannot send: `X-Requested-With`, or any `X-Store-*`. */
const isScriptHeader = (name: string): boolean => {
  const lower = name.toLowerCase();
  return lower === 'x-requested-with' || lower.startsWith('x-store-');
};

/**
 * Sign-out (and sign-out everywhere) must be a request a form of another site cannot send: a JSON
 * body (`Content-Type: application/json`), an `X-Requested-With` or `X-Store-*` header, or the
 * session as `Authorization: Bearer`. Anything else is a 403 `custom_header_required`, nothing
 * ended and no cookie touched, with or without the session cookie: a browser keeps
 * `SameSite=Lax` cookies off a cross-site form post, but it does accept the answer's cookie
 * clearing, which would sign the user out of that browser all the same.
 */
export function assertNotCrossSiteForm(ctx: AuthRouteContext): void {
  const { headers } = ctx.request;
  if (/^Bearer\s/i.test(header(headers, 'authorization') ?? '')) return;
  const type = header(headers, 'content-type');
  if (type !== undefined && isJsonContentType(type)) return;
  if (Object.keys(headers).some(isScriptHeader)) return;
  throw new AuthError(
    'custom_header_required',
    'Sign out from a script of the site: send Content-Type: application/json (an empty body is fine) or an X-Requested-With header. A form of another site can send neither, so it cannot sign anyone out.',
  );
}
