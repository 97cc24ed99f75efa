import { verifyCode } from '../../flows/verify-code';
import { sessionAnswer } from '../answers';
import { readJsonBody } from '../bodies';
import type { AuthRoute } from '../context';

/**
 * `POST /auth/magic-code/verify` `{ "email", "code" }` (keeps the code out of URLs and logs):
 * 200 `{ token, user, expiresAt }` with the session cookie; 401 `invalid_code`, 410
 * `token_expired`, 409 `already_used`, 404 `user_not_found`.
 */
export const verifyCodeRoute: AuthRoute = async (ctx) => {
  const body = await readJsonBody(ctx);
  const session = await verifyCode(ctx.deps, { email: body.email, code: body.code, request: ctx.client });
  return sessionAnswer(ctx, session);
};
