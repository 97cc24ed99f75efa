import { getSession } from '../../flows/session-flows';
import type { AuthRoute } from '../context';
import { wireUser } from '../wire-user';

/**
 * `GET /auth/session`: who is signed in (`Authorization: Bearer <token>` or the `store_session`
 * cookie). 200 `{ user, expiresAt }` (the user's key named as the store's `wireId` says); 401
 * `unauthorized` without a live session.
 */
export const sessionRoute: AuthRoute = async (ctx) => {
  const { user, expiresAt } = await getSession(ctx.deps, { headers: ctx.request.headers });
  return { status: 200, data: { user: wireUser(ctx.wireId, user), expiresAt } };
};
