import { normalizeEmail } from '../../email';
import { verifyCode } from '../../flows/verify-code';
import { sessionAnswer, withErrorRedirects } from '../answers';
import { assertConfirmedOnPage } from '../code-link';
import type { AuthRoute } from '../context';
import { codeOptions } from '../context';

/**
 * `POST /auth/magic-code/:email/:token`, the button of a code link's confirmation page: signs
 * this browser in, 200 with the session or 303 to `magicCode.redirectSuccess` (cookie set). Only
 * that page's own form post passes (403 `confirmation_required` otherwise, nothing changed: a
 * form of another site cannot sign anyone in); then refusals as the code verification.
 */
export const confirmCodeLinkRoute: AuthRoute = async (ctx) => {
  const strategy = codeOptions(ctx);
  const email = normalizeEmail(ctx.params.email);
  const code = (ctx.params.token ?? '').trim();
  await assertConfirmedOnPage(ctx, email, code);
  return withErrorRedirects(ctx, strategy, async () => {
    const session = await verifyCode(ctx.deps, { email, code, request: ctx.client });
    return sessionAnswer(ctx, session, strategy.redirectSuccess);
  });
};
