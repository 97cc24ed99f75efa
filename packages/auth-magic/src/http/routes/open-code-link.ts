import { codeBrowserFromHeaders } from '../../code-browser';
import { openCodeLink } from '../../flows/open-code-link';
import { verifyCode } from '../../flows/verify-code';
import { sessionAnswer, withErrorRedirects } from '../answers';
import { codeConfirmAnswer, isApiClient } from '../code-link';
import type { AuthRoute } from '../context';
import { codeOptions } from '../context';

/**
 * `GET /auth/magic-code/:email/:token`, the link of a code mail. The browser that asked for the
 * code (its `store_code_browser` cookie) and API clients (no page asked for, no other site
 * behind the request) are signed in: 200 with the session, or 302 to `magicCode.redirectSuccess`
 * (cookie set). Any other browser changes nothing: the confirmation page naming the account,
 * whose button POSTs to this URL. Refusals as `POST /auth/magic-code/verify` (a wrong code is a
 * counted miss), `already_used` / `user_not_found` redirected when `magicCode` names pages.
 */
export const openCodeLinkRoute: AuthRoute = async (ctx) => {
  const strategy = codeOptions(ctx);
  const email = ctx.params.email ?? '';
  const code = ctx.params.token ?? '';
  return withErrorRedirects(ctx, strategy, async () => {
    if (isApiClient(ctx)) {
      const session = await verifyCode(ctx.deps, { email, code, request: ctx.client });
      return sessionAnswer(ctx, session, strategy.redirectSuccess);
    }
    const browser = codeBrowserFromHeaders(ctx.request.headers);
    const result = await openCodeLink(ctx.deps, { email, code, browser, request: ctx.client });
    if (result.status === 'signed_in') return sessionAnswer(ctx, result.session, strategy.redirectSuccess);
    return codeConfirmAnswer(ctx, result.email, result.code);
  });
};
