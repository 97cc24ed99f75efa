import { pollLinkStatus } from '../../flows/poll-link-status';
import { sessionAnswer } from '../answers';
import type { AuthRoute } from '../context';

/**
 * `GET /auth/magic-token/:token` with the `pollToken`: 202 `{ status: 'pending' }` with
 * `Retry-After` until the link is approved, then 200 `{ token, user, expiresAt }` (cookie set)
 * exactly once, then 409 `already_used`; 404 `token_not_found`; 410 `token_expired`.
 */
export const pollTokenRoute: AuthRoute = async (ctx) => {
  const result = await pollLinkStatus(ctx.deps, { token: ctx.params.token, request: ctx.client });
  if (result.status === 'signed_in') return sessionAnswer(ctx, result.session);
  return {
    status: 202,
    data: { status: 'pending' },
    headers: { 'retry-after': String(result.retryAfter) },
  };
};
