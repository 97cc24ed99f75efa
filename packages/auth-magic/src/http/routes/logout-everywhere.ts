import { logoutEverywhere } from '../../flows/session-flows';
import { signedOutAnswer } from '../answers';
import type { AuthRoute } from '../context';
import { assertNotCrossSiteForm } from '../sign-out-guard';

/**
 * `POST /auth/logout-everywhere`: revokes every session of the request's user (all their event
 * streams end) and clears the cookie. 204; 401 `unauthorized` without a live session; 403
 * `custom_header_required` for a request a form of another site could have sent (checked first).
 */
export const logoutEverywhereRoute: AuthRoute = async (ctx) => {
  assertNotCrossSiteForm(ctx);
  await logoutEverywhere(ctx.deps, { headers: ctx.request.headers });
  return signedOutAnswer(ctx);
};
