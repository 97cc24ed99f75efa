import type { AuthCollection, AuthDocument } from '../db';
import type { AuthDeps } from '../deps';
import { hookContext, runHooks } from '../hooks';
import type { AuthHook, AuthRequest } from '../options';
import type { ResolvedStrategy } from '../resolved-options';
import { assertUsable, claimLostError, claimSecret } from '../secret-store';
import { assertUserAllowed, findUser, userForSignIn } from '../users';

/** One verification: the stored record found by hash, and how to claim it. */
export interface Verification {
  strategy: ResolvedStrategy;
  collection: AuthCollection;
  record: AuthDocument;
  /** The secret as the client sent it, for hooks. */
  token: string;
  request: AuthRequest | undefined;
  /** Hooks to run before anything changes. */
  hooks: ReadonlyArray<AuthHook | null>;
  /** Extra conditions of the atomic claim (e.g. attempts left). */
  claimFilter?: AuthDocument;
  /** Extra fields set by the claim (e.g. poll approval). */
  claimSet?: AuthDocument;
}

/**
 * Verifies a found secret and returns the user to sign in: usable (else 409/410/401), user
 * present or creatable (else 404 `user_not_found`), hooks pass (else their status); only then
 * the secret is claimed by ONE atomic state change, and the winner alone creates the user if
 * missing (the unique index on the address stops a second one). Of two concurrent
 * verifications exactly one passes; the other gets 409 `already_used`.
 */
export async function verifySecret(deps: AuthDeps, verification: Verification): Promise<AuthDocument> {
  const { strategy, collection, record } = verification;
  const now = deps.options.clock();
  assertUsable(record, now);
  const email = String(record.email);
  const existing = await findUser(deps, strategy.emailField, email);
  assertUserAllowed(deps, existing);
  const context = hookContext(deps, {
    email,
    user: existing,
    token: verification.token,
    request: verification.request,
  });
  await runHooks(verification.hooks, context);
  const filter = { hash: record.hash };
  const claimed = await claimSecret(
    collection,
    { ...verification.claimFilter, ...filter },
    now,
    verification.claimSet,
  );
  if (claimed === null) throw await claimLostError(collection, filter, now);
  const user = await userForSignIn(deps, strategy.emailField, email, existing);
  await collection.updateOne(filter, { $set: { userId: user._id } });
  return user;
}
