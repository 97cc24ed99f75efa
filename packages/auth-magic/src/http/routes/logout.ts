import { logout } from '../../flows/session-flows';
import { sessionCookie } from '../../session-http';
import type { AuthRoute } from '../context';

/** `POST /auth/logout`: revokes the request's session at once and clears the cookie. 204, even without one. */
export const logoutRoute: AuthRoute = async (ctx) => {
  await logout(ctx.deps, { headers: ctx.request.headers });
  const cookie = sessionCookie('', { secure: ctx.deps.options.secureCookie, maxAge: 0 });
  return { status: 204, headers: { 'set-cookie': cookie } };
};
