import { approveLink } from '../../flows/approve-link';
import { redirect, sessionAnswer, withErrorRedirects } from '../answers';
import { readApprovalBody } from '../bodies';
import type { AuthRoute } from '../context';
import { linkOptions } from '../context';

/**
 * `POST /auth/magic-link/:token`, the confirmation page's button (empty body or form post).
 * A poll link: approves the device that asked, 200 `{ status: 'approved' }` or 303 to
 * `redirectSuccess`. A plain link: signs in this browser as the GET does (303 or 200).
 * Refusals as the GET; `already_used` / `user_not_found` redirected (303) when configured.
 */
export const approveLinkRoute: AuthRoute = async (ctx) => {
  const strategy = linkOptions(ctx);
  await readApprovalBody(ctx);
  return withErrorRedirects(ctx, strategy, async () => {
    const result = await approveLink(ctx.deps, { token: ctx.params.token, request: ctx.client });
    if (result.status === 'signed_in') return sessionAnswer(ctx, result.session, strategy.redirectSuccess);
    if (strategy.redirectSuccess !== null) return redirect(ctx, strategy.redirectSuccess);
    return { status: 200, data: { status: 'approved' } };
  });
};
