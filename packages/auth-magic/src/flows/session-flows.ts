import type { AuthDocument } from '../db';
import type { AuthDeps } from '../deps';
import { ensureAuthIndexes } from '../deps';
import { AuthError } from '../errors';
import { type HeaderBag, sessionTokenFromHeaders } from '../session-http';
import { findSession, revokeSession, revokeUserSessions } from '../sessions';

/**
 * `GET /auth/session`: the session the request carries (Bearer or `store_session` cookie).
 * -> 200 `{ user, expiresAt }`. Throws 401 `unauthorized` when there is none or it is not live.
 */
export async function getSession(
  deps: AuthDeps,
  input: { headers: HeaderBag },
): Promise<{ user: AuthDocument; expiresAt: Date }> {
  await ensureAuthIndexes(deps);
  const token = sessionTokenFromHeaders(input.headers);
  const session = token === null ? null : await findSession(deps, token);
  if (session === null) throw new AuthError('unauthorized', 'No valid session');
  const { user, expiresAt } = session;
  return { user, expiresAt };
}

/**
 * `POST /auth/logout`: revokes the request's session at once (idempotent), and ends the event
 * streams opened with it. -> 204, and the route clears the cookie (`sessionCookie('', { maxAge:
 * 0, secure })`).
 */
export async function logout(deps: AuthDeps, input: { headers: HeaderBag }): Promise<void> {
  await ensureAuthIndexes(deps);
  const token = sessionTokenFromHeaders(input.headers);
  if (token !== null) await revokeSession(deps, token);
}

/**
 * `POST /auth/logout-everywhere`: revokes every session of the request's user at once, and ends
 * all their event streams; returns how many sessions there were. -> 204, and the route clears the
 * cookie. Throws 401 `unauthorized` without a live session.
 */
export async function logoutEverywhere(deps: AuthDeps, input: { headers: HeaderBag }): Promise<number> {
  await ensureAuthIndexes(deps);
  const token = sessionTokenFromHeaders(input.headers);
  const session = token === null ? null : await findSession(deps, token);
  if (session === null) throw new AuthError('unauthorized', 'No valid session');
  return revokeUserSessions(deps, session.user._id);
}
