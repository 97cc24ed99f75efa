import type { AuthDocument } from '../db';
import type { AuthDeps } from '../deps';
import { ensureAuthIndexes } from '../deps';
import { AuthError } from '../errors';
import { hookContext, runHooks } from '../hooks';
import type { AuthRequest } from '../options';
import { TOKEN_PATTERN } from '../secrets';
import { type AuthSession, createSession } from '../sessions';
import { linkStrategy, pollHash } from './strategies';

/** Answer of {@link pollLinkStatus}. */
export type PollLinkResult =
  | { status: 'pending'; retryAfter: number }
  | { status: 'signed_in'; session: AuthSession };

async function findPolled(deps: AuthDeps, token: unknown): Promise<AuthDocument> {
  const notFound = new AuthError('token_not_found', 'Unknown poll token');
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) throw notFound;
  const links = deps.db.collection(linkStrategy(deps).collection);
  const record = await links.findOne({ pollHash: pollHash(deps, token) });
  if (record === null) throw notFound;
  if (record.pollState === 'retrieved')
    throw new AuthError('already_used', 'The session was already handed out');
  const live = record.state === 'active' || record.pollState === 'approved';
  if (!live || !(record.expiresAt instanceof Date) || record.expiresAt <= deps.options.clock()) {
    throw new AuthError('token_expired', 'This sign-in link has expired or was replaced');
  }
  return record;
}

/**
 * `GET /auth/magic-token/:token` with the `pollToken`: `pending` (route: 202 with `Retry-After:
 * retryAfter`) until the link is approved, then the session exactly once (one atomic
 * `approved -> retrieved` change; `doRetrieve` runs before it), then 409 `already_used`.
 * Throws 404 `token_not_found`, 410 `token_expired`, 404 `user_not_found`, a hook abort.
 */
export async function pollLinkStatus(
  deps: AuthDeps,
  input: { token: unknown; request?: AuthRequest },
): Promise<PollLinkResult> {
  const strategy = linkStrategy(deps);
  await ensureAuthIndexes(deps);
  const record = await findPolled(deps, input.token);
  // Approved but its user not yet recorded (the approval writes it right after its claim): still pending.
  if (record.pollState !== 'approved' || record.userId === undefined) {
    return { status: 'pending', retryAfter: strategy.pollInterval };
  }
  const users = deps.db.collection(deps.options.userCollection);
  const user = await users.findOne({ _id: record.userId });
  if (user === null) throw new AuthError('user_not_found', 'The approved user no longer exists');
  const email = String(record.email);
  await runHooks(
    [strategy.doRetrieve],
    hookContext(deps, { email, user, token: String(input.token), request: input.request }),
  );
  const links = deps.db.collection(strategy.collection);
  const claimed = await links.findOneAndUpdate(
    { _id: record._id, pollState: 'approved' },
    { $set: { pollState: 'retrieved', retrievedAt: deps.options.clock() } },
    { returnDocument: 'after' },
  );
  if (claimed === null) throw new AuthError('already_used', 'The session was already handed out');
  return { status: 'signed_in', session: await createSession(deps, user) };
}
