import { logout } from '../../flows/session-flows';
import { signedOutAnswer } from '../answers';
import type { AuthRoute } from '../context';
import { assertNotCrossSiteForm } from '../sign-out-guard';

/**
 * `POST /auth/logout`: revokes the request's session at once (its event streams end) and clears
 * the cookie. 204, even without one; 403 `custom_header_required` for a request
 * that a form of another site could have sent (see `assertNotCrossSiteForm`).
 */
export const logoutRoute: AuthRoute = async (ctx) => {
  assertNotCrossSiteForm(ctx);
  await logout(ctx.deps, { headers: ctx.request.headers });
  return signedOutAnswer(ctx);
};
