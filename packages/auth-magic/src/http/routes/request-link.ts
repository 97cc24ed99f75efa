import { requestLink } from '../../flows/request-link';
import { readJsonBody } from '../bodies';
import type { AuthRoute } from '../context';

/**
 * `POST /auth/magic-link/` `{ "email", "poll"?: true }`: mails `<baseUrl>/auth/magic-link/<token>`.
 * 202 `{ sent, expiresAt }`, plus `pollToken` with `poll`; 400; 429 with `Retry-After`; 502/503.
 */
export const requestLinkRoute: AuthRoute = async (ctx) => {
  const body = await readJsonBody(ctx);
  const sent = await requestLink(ctx.deps, { email: body.email, poll: body.poll, request: ctx.client });
  return { status: 202, data: sent };
};
