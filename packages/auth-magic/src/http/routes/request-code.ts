import { codeBrowserFromHeaders } from '../../code-browser';
import { requestCode } from '../../flows/request-code';
import { generateToken } from '../../secrets';
import { readJsonBody } from '../bodies';
import { codeBrowserSetCookie } from '../code-link';
import type { AuthRoute } from '../context';

/**
 * `POST /auth/magic-code/` `{ "email" }`: mails a code. 202 `{ sent, expiresAt }`, the same
 * whether or not a user has the address, with the `store_code_browser` cookie (the id this
 * browser already had, or a new one): the code's link signs this browser in with one click.
 * 400 `invalid_email`; 429 with `Retry-After`; 502/503.
 */
export const requestCodeRoute: AuthRoute = async (ctx) => {
  const body = await readJsonBody(ctx);
  const browser = codeBrowserFromHeaders(ctx.request.headers) ?? generateToken();
  const sent = await requestCode(ctx.deps, { email: body.email, request: ctx.client, browser });
  return { status: 202, data: sent, headers: { 'set-cookie': codeBrowserSetCookie(ctx, browser) } };
};
