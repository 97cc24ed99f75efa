import { logoutEverywhere } from '../../flows/session-flows';
import { signedOutAnswer } from '../answers';
import type { AuthRoute } from '../context';

/**
 * `POST /auth/logout-everywhere`: revokes every session of the request's user (all their event
 * streams end) and clears the cookie. 204; 401 `unauthorized` without a live session.
 */
export const logoutEverywhereRoute: AuthRoute = async (ctx) => {
  await logoutEverywhere(ctx.deps, { headers: ctx.request.headers });
  return signedOutAnswer(ctx);
};
