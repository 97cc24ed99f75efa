import type { AuthDeps } from '../deps';
import { ensureAuthIndexes } from '../deps';
import { AuthError } from '../errors';
import type { AuthRequest } from '../options';
import { type AuthSession, createSession } from '../sessions';
import { findLink, linkStrategy } from './strategies';
import { verifySecret } from './verify-secret';

/**
 * `GET /auth/magic-link/:token` for a link requested WITHOUT `poll`: signs in the browser that
 * opens it. -> the session `{ token, user, expiresAt }` (the route sets the cookie and redirects
 * to `redirectSuccess`, or answers 200). Throws 404 `token_not_found`, 410 `token_expired`,
 * 409 `already_used`, 404 `user_not_found`, a hook abort, and 409 `approval_required` for a
 * poll link (which a GET must never consume: render the confirmation page instead).
 */
export async function consumeLink(
  deps: AuthDeps,
  input: { token: unknown; request?: AuthRequest },
): Promise<AuthSession> {
  const strategy = linkStrategy(deps);
  await ensureAuthIndexes(deps);
  const { token, record } = await findLink(deps, input.token);
  if (record.poll === true) {
    throw new AuthError(
      'approval_required',
      'This link must be approved with POST from its confirmation page',
    );
  }
  const user = await verifySecret(deps, {
    strategy,
    collection: deps.db.collection(strategy.collection),
    record,
    token,
    request: input.request,
    hooks: [strategy.doVerify, strategy.doRetrieve],
    claimFilter: { poll: false },
  });
  return createSession(deps, user);
}
