import type { AuthDeps } from '../deps';
import { ensureAuthIndexes } from '../deps';
import type { AuthRequest } from '../options';
import type { AuthSession } from '../sessions';
import { consumeLink } from './consume-link';
import { findLink, linkStrategy } from './strategies';
import { verifySecret } from './verify-secret';

/** Answer of {@link approveLink}. */
export type ApproveLinkResult = { status: 'approved' } | { status: 'signed_in'; session: AuthSession };

/**
 * `POST /auth/magic-link/:token` (the confirmation page's button; empty or form body).
 * For a poll link: approves the device that asked (runs `doVerify`, creates the user if needed,
 * one atomic `active -> used` change recording the approval) -> `{ status: 'approved' }`
 * (route: 200, or 303 to `redirectSuccess`); that device then collects its session by polling.
 * For a plain link the POST signs in this browser like {@link consumeLink} -> `signed_in`.
 * Throws 404 `token_not_found`, 410 `token_expired`, 409 `already_used`, 404 `user_not_found`.
 */
export async function approveLink(
  deps: AuthDeps,
  input: { token: unknown; request?: AuthRequest },
): Promise<ApproveLinkResult> {
  const strategy = linkStrategy(deps);
  await ensureAuthIndexes(deps);
  const { token, record } = await findLink(deps, input.token);
  if (record.poll !== true) return { status: 'signed_in', session: await consumeLink(deps, input) };
  const now = deps.options.clock();
  const approvedBy = { ip: input.request?.ip ?? null, userAgent: input.request?.userAgent ?? null };
  await verifySecret(deps, {
    strategy,
    collection: deps.db.collection(strategy.collection),
    record,
    token,
    request: input.request,
    hooks: [strategy.doVerify],
    claimFilter: { poll: true, pollState: 'pending' },
    claimSet: { pollState: 'approved', approvedAt: now, approvedBy },
  });
  return { status: 'approved' };
}
