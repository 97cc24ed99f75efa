import { verifyCode } from '../../flows/verify-code';
import { sessionAnswer, withErrorRedirects } from '../answers';
import type { AuthRoute } from '../context';
import { codeOptions } from '../context';

/**
 * `GET /auth/magic-code/:email/:token`: verifies the code in the path. 200 with the session (or
 * 302 to `magicCode.redirectSuccess`, cookie set); refusals as `POST /auth/magic-code/verify`,
 * `already_used` / `user_not_found` redirected when `magicCode` names pages for them.
 */
export const openCodeLinkRoute: AuthRoute = async (ctx) => {
  const strategy = codeOptions(ctx);
  return withErrorRedirects(ctx, strategy, async () => {
    const { email, token } = ctx.params;
    const session = await verifyCode(ctx.deps, { email, code: token, request: ctx.client });
    return sessionAnswer(ctx, session, strategy.redirectSuccess);
  });
};
