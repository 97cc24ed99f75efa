import { consumeLink } from '../../flows/consume-link';
import { inspectLink } from '../../flows/inspect-link';
import { confirmAnswer, sessionAnswer, withErrorRedirects } from '../answers';
import type { AuthRoute } from '../context';
import { linkOptions } from '../context';

/**
 * `GET /auth/magic-link/:token`. A poll link changes nothing: the confirmation page (or JSON
 * `{ status: 'confirm', ... }` when the client asks for JSON). A plain link signs in this browser:
 * 302 to `redirectSuccess` with the cookie, or 200 with the session. Used: 302 to
 * `redirectAlreadyUsed` or 409; user missing: 302 to `redirectNotFound` or 404; unknown: 404
 * `token_not_found`; expired: 410.
 */
export const openLinkRoute: AuthRoute = async (ctx) => {
  const strategy = linkOptions(ctx);
  const token = ctx.params.token ?? '';
  return withErrorRedirects(ctx, strategy, async () => {
    const inspection = await inspectLink(ctx.deps, { token });
    if (inspection.status === 'confirm') return confirmAnswer(ctx, token, inspection);
    const session = await consumeLink(ctx.deps, { token, request: ctx.client });
    return sessionAnswer(ctx, session, strategy.redirectSuccess);
  });
};
