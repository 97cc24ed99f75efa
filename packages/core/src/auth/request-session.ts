import { type AuthDeps, findSession, sessionTokenFromHeaders } from '@store/auth-magic';
import type { RequestSession } from '../context';
import type { StoreRequest } from '../types';

/**
 * The live session a resource request carries (`Authorization: Bearer` or the `store_session`
 * cookie), for `ctx.user` / `ctx.session`; `null` without auth, without a token, or when the token
 * is unknown, expired, revoked or its user is gone (access rules decide what anonymity may do).
 */
export async function findRequestSession(
  request: StoreRequest,
  auth: AuthDeps | null,
): Promise<RequestSession | null> {
  if (auth === null) return null;
  const token = sessionTokenFromHeaders(request.headers);
  return token === null ? null : findSession(auth, token);
}
