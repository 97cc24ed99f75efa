import { logout } from '../../flows/session-flows';
import { signedOutAnswer } from '../answers';
import type { AuthRoute } from '../context';

/**
 * `POST /auth/logout`: revokes the request's session at once (its event streams end) and clears
 * the cookie. 204, even without one.
 */
export const logoutRoute: AuthRoute = async (ctx) => {
  await logout(ctx.deps, { headers: ctx.request.headers });
  return signedOutAnswer(ctx);
};
