import {
  COOKIE_PATH,
  codeBrowserCookie,
  codeBrowserFromHeaders,
  codeConfirmProof,
  isCodeConfirmProof,
} from '../code-browser';
import { codeConfirmPage } from '../code-confirm-page';
import { AuthError } from '../errors';
import { generateToken } from '../secrets';
import { header } from '../session-http';
import { wantsHtml, wantsJson } from './answers';
import { readFormField } from './bodies';
import type { AuthResult, AuthRouteContext } from './context';
import { codeOptions } from './context';

/** Where the code routes live as the browser sees them: under `baseUrl`'s path (the links' own), else the mount. */
function codeCookiePath(ctx: AuthRouteContext): string {
  const { baseUrl } = ctx.deps.options;
  const base = baseUrl === null ? (ctx.request.mountPath ?? '') : new URL(baseUrl).pathname;
  const path = `${base.replace(/\/+$/, '')}/auth/magic-code`;
  return COOKIE_PATH.test(path) ? path : '/';
}

/** The `Set-Cookie` that marks this browser with `id`, for as long as a code lives. */
export function codeBrowserSetCookie(ctx: AuthRouteContext, id: string): string {
  return codeBrowserCookie(id, {
    secure: ctx.deps.options.secureCookie,
    maxAge: codeOptions(ctx).expMs / 1000,
    path: codeCookiePath(ctx),
  });
}

/** Who made the request, as a browser says (`Sec-Fetch-Site`, lower-cased); `undefined` from other clients. */
function fetchSite(ctx: AuthRouteContext): string | undefined {
  return header(ctx.request.headers, 'sec-fetch-site')?.trim().toLowerCase();
}

/**
 * Whether a request for a code link is an API client's (a CLI, an app, a script of the store's own
 * origin): not a browser asking for a page, and not made by a page of another site. Those sign in
 * as before; a browser opening a page needs to be the one that asked for the code, or to confirm.
 */
export function isApiClient(ctx: AuthRouteContext): boolean {
  const site = fetchSite(ctx);
  return (site === undefined || site === 'same-origin') && !wantsHtml(ctx);
}

/**
 * The answer to a code link a browser opened without having asked for the code: nothing changed,
 * the confirmation page naming the account (or `{ status: 'confirm', email }` asked for JSON).
 * The page carries the proof of this browser (its `store_code_browser` cookie, set here when it
 * has none), so only its own button can confirm.
 */
export function codeConfirmAnswer(ctx: AuthRouteContext, email: string, code: string): AuthResult {
  if (wantsJson(ctx)) return { status: 200, data: { status: 'confirm', email } };
  const known = codeBrowserFromHeaders(ctx.request.headers);
  const browser = known ?? generateToken();
  const page = codeConfirmPage({
    email,
    proof: codeConfirmProof(ctx.deps.options.secret, browser, email, code),
  });
  const headers = Object.fromEntries(Object.entries(page.headers).map(([k, v]) => [k.toLowerCase(), v]));
  if (known === null) headers['set-cookie'] = codeBrowserSetCookie(ctx, browser);
  return { status: page.status, headers, html: page.body };
}

/** Whether the request's `Origin`, when it names one, is the store's (`null`: a no-referrer page's own form). */
function fromOwnOrigin(ctx: AuthRouteContext): boolean {
  const origin = header(ctx.request.headers, 'origin');
  const { baseUrl } = ctx.deps.options;
  if (origin === undefined || origin === 'null' || baseUrl === null) return true;
  return origin === new URL(baseUrl).origin;
}

/**
 * Checks that a `POST` on a code link is the button of the confirmation page this browser was
 * shown: the form's proof matches this browser's cookie, the address and the code, and the
 * browser does not say another site made the request. A cross-site form has neither the cookie
 * (`SameSite=Lax` keeps it off cross-site posts) nor the proof (a keyed hash of it). Else 403
 * `confirmation_required`, nothing read or changed; 415 for a body that is not a form post.
 */
export async function assertConfirmedOnPage(
  ctx: AuthRouteContext,
  email: string,
  code: string,
): Promise<void> {
  const proof = await readFormField(ctx, 'confirm');
  const browser = codeBrowserFromHeaders(ctx.request.headers);
  const site = fetchSite(ctx);
  const confirmed =
    proof !== null &&
    browser !== null &&
    (site === undefined || site === 'same-origin') &&
    fromOwnOrigin(ctx) &&
    isCodeConfirmProof(ctx.deps.options.secret, proof, { id: browser, email, code });
  if (confirmed) return;
  throw new AuthError(
    'confirmation_required',
    'Open the sign-in link again and press the button on its page: this request did not come from that page in this browser. API clients verify codes with POST /auth/magic-code/verify.',
  );
}
