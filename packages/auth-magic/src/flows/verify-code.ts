import type { AuthCollection } from '../db';
import type { AuthDeps } from '../deps';
import { ensureAuthIndexes } from '../deps';
import { normalizeEmail } from '../email';
import { AuthError } from '../errors';
import type { AuthRequest } from '../options';
import { activeSecrets } from '../secret-store';
import { type AuthSession, createSession } from '../sessions';
import { codeHash, codeStrategy } from './strategies';
import { verifySecret } from './verify-secret';

/** Input of {@link verifyCode}: `email` and `code` from the path or the JSON body (unchecked). */
export interface VerifyCodeInput {
  email: unknown;
  code: unknown;
  request?: AuthRequest;
}

/** A wrong guess counts against every active code of the address; at `maxAttempts` a code is dead. */
async function countMiss(
  collection: AuthCollection,
  email: string,
  maxAttempts: number,
  now: Date,
): Promise<void> {
  for (const record of await activeSecrets(collection, email, now)) {
    const after = await collection.findOneAndUpdate(
      { _id: record._id, state: 'active' },
      { $inc: { attempts: 1 } },
      { returnDocument: 'after' },
    );
    if (typeof after?.attempts === 'number' && after.attempts >= maxAttempts) {
      await collection.updateOne({ _id: record._id, state: 'active' }, { $set: { state: 'exhausted' } });
    }
  }
}

/**
 * `GET /auth/magic-code/:email/:token` and `POST /auth/magic-code/verify` `{ email, code }`:
 * signs in with a code. -> 200 `{ token, user, expiresAt }` (a session). Throws 400
 * `invalid_email`; 401 `invalid_code` (wrong, unknown or dead code; counts an attempt);
 * 410 `token_expired`; 409 `already_used`; 404 `user_not_found`; a `doVerify`/`doRetrieve` abort.
 */
export async function verifyCode(deps: AuthDeps, input: VerifyCodeInput): Promise<AuthSession> {
  const strategy = codeStrategy(deps);
  const email = normalizeEmail(input.email);
  await ensureAuthIndexes(deps);
  const collection = deps.db.collection(strategy.collection);
  const code = typeof input.code === 'string' ? input.code.trim() : null;
  const record =
    code !== null && code.length === strategy.length && /^\d+$/.test(code)
      ? await collection.findOne({ hash: codeHash(deps, email, code) })
      : null;
  if (record === null || code === null) {
    await countMiss(collection, email, strategy.maxAttempts, deps.options.clock());
    throw new AuthError('invalid_code', 'Wrong or unknown code');
  }
  const user = await verifySecret(deps, {
    strategy,
    collection,
    record,
    token: code,
    request: input.request,
    hooks: [strategy.doVerify, strategy.doRetrieve],
    claimFilter: { attempts: { $lt: strategy.maxAttempts } },
  });
  return createSession(deps, user);
}
