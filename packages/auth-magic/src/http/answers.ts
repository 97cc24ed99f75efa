import { confirmPage } from '../confirm-page';
import type { LinkInspection } from '../flows/inspect-link';
import type { ResolvedStrategy } from '../resolved-options';
import { sessionCookie } from '../session-http';
import type { AuthSession } from '../sessions';
import type { AuthResult, AuthRouteContext } from './context';
import { wireUser } from './wire-user';

/** The quality the `Accept` header gives `type` (its most specific matching range), 0 when none. */
function quality(accept: string, type: string): number {
  const [family] = type.split('/');
  let best = 0;
  let specificity = -1;
  for (const part of accept.split(',').slice(0, 50)) {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const rank = range === type ? 2 : range === `${family}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (rank <= specificity) continue;
    const q = Number(params.find((param) => param.startsWith('q='))?.slice(2) ?? 1);
    specificity = rank;
    best = Number.isFinite(q) ? q : 0;
  }
  return best;
}

function acceptOf(ctx: AuthRouteContext): string {
  const raw = ctx.request.headers.accept;
  return (Array.isArray(raw) ? raw.join(',') : raw) ?? '';
}

/** Whether the client prefers JSON to HTML (`Accept: application/json`); browsers get HTML. */
export function wantsJson(ctx: AuthRouteContext): boolean {
  const accept = acceptOf(ctx);
  return quality(accept, 'application/json') > quality(accept, 'text/html');
}

/** Whether the client prefers HTML to JSON: a browser opening a page (`Accept: text/html,...`). */
export function wantsHtml(ctx: AuthRouteContext): boolean {
  const accept = acceptOf(ctx);
  return quality(accept, 'text/html') > quality(accept, 'application/json');
}

/** A redirect: 302 after a GET, 303 after a POST (the browser then GETs the target). */
export function redirect(ctx: AuthRouteContext, location: string, headers: Record<string, string> = {}) {
  return { status: ctx.method === 'POST' ? 303 : 302, headers: { ...headers, location } };
}

/**
 * Hands out a session: the `store_session` cookie (HttpOnly, SameSite=Lax, Secure on https) and
 * either a redirect to `redirectSuccess` or 200 `{ token, user, expiresAt }` (the user's key named
 * as the store's `wireId` says).
 */
export function sessionAnswer(
  ctx: AuthRouteContext,
  session: AuthSession,
  redirectSuccess: string | null = null,
): AuthResult {
  const { options } = ctx.deps;
  const cookie = sessionCookie(session.token, {
    secure: options.secureCookie,
    maxAge: options.sessionTtlMs / 1000,
  });
  if (redirectSuccess !== null) return redirect(ctx, redirectSuccess, { 'set-cookie': cookie });
  const { token, user, expiresAt } = session;
  return {
    status: 200,
    data: { token, user: wireUser(ctx.wireId, user), expiresAt },
    headers: { 'set-cookie': cookie },
  };
}

/** The answer to a sign-out: 204, the `store_session` cookie cleared. */
export function signedOutAnswer(ctx: AuthRouteContext): AuthResult {
  const cookie = sessionCookie('', { secure: ctx.deps.options.secureCookie, maxAge: 0 });
  return { status: 204, headers: { 'set-cookie': cookie } };
}

/** Refusals a browser is sent elsewhere for, when the strategy names a page. */
const ERROR_REDIRECTS = {
  already_used: 'redirectAlreadyUsed',
  user_not_found: 'redirectNotFound',
} as const satisfies Record<string, keyof ResolvedStrategy>;

/** Runs a route's work; `already_used` / `user_not_found` become redirects when configured. */
export async function withErrorRedirects(
  ctx: AuthRouteContext,
  strategy: ResolvedStrategy,
  work: () => Promise<AuthResult>,
): Promise<AuthResult> {
  try {
    return await work();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const known = typeof code === 'string' && Object.hasOwn(ERROR_REDIRECTS, code);
    const target = known ? strategy[ERROR_REDIRECTS[code as keyof typeof ERROR_REDIRECTS]] : null;
    if (target === null) throw error;
    return redirect(ctx, target);
  }
}

/**
 * The answer to opening a poll link: JSON `{ status: 'confirm', requestedAt, ip, userAgent }`
 * when the client asks for JSON, else the confirmation page (or the redirect to `pollApproval`).
 */
export function confirmAnswer(ctx: AuthRouteContext, token: string, inspection: LinkInspection): AuthResult {
  if (wantsJson(ctx)) {
    const { requestedAt, ip, userAgent } = inspection;
    return { status: 200, data: { status: 'confirm', requestedAt, ip, userAgent } };
  }
  const page = confirmPage(ctx.deps.options, token, inspection);
  const headers = Object.fromEntries(Object.entries(page.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return page.body === ''
    ? { status: page.status, headers }
    : { status: page.status, headers, html: page.body };
}
