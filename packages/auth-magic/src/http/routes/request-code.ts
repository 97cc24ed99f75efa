import { requestCode } from '../../flows/request-code';
import { readJsonBody } from '../bodies';
import type { AuthRoute } from '../context';

/**
 * `POST /auth/magic-code/` `{ "email" }`: mails a code. 202 `{ sent, expiresAt }`, the same
 * whether or not a user has the address; 400 `invalid_email`; 429 with `Retry-After`; 502/503.
 */
export const requestCodeRoute: AuthRoute = async (ctx) => {
  const body = await readJsonBody(ctx);
  const sent = await requestCode(ctx.deps, { email: body.email, request: ctx.client });
  return { status: 202, data: sent };
};
