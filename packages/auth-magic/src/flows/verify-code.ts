import { addressKey } from '@store/core';
import type { AuthCollection, AuthDocument } from '../db';
import type { AuthDeps } from '../deps';
import { ensureAuthIndexes } from '../deps';
import { normalizeEmail } from '../email';
import { AuthError } from '../errors';
import type { AuthRequest } from '../options';
import { hitRateLimit } from '../rate-limit';
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

/** A wrong guess counts against every active code of the address; at `maxGuesses` a code is dead. */
async function countMiss(
  collection: AuthCollection,
  email: string,
  maxGuesses: number,
  now: Date,
): Promise<void> {
  for (const record of await activeSecrets(collection, email, now)) {
    const after = await collection.findOneAndUpdate(
      { _id: record._id, state: 'active' },
      { $inc: { attempts: 1 } },
      { returnDocument: 'after' },
    );
    if (typeof after?.attempts === 'number' && after.attempts >= maxGuesses) {
      await collection.updateOne({ _id: record._id, state: 'active' }, { $set: { state: 'exhausted' } });
    }
  }
}

/** A code found by its hash: the live record, and the address and code as normalized. */
export interface FoundCode {
  email: string;
  code: string;
  record: AuthDocument;
}

/**
 * Finds the code a client sent, charging a wrong guess to the guessing client (`maxAttempts` per
 * address within a code's lifetime, then 429 `too_many_requests` without looking at the code) and
 * to the address's active codes (dead after `maxGuesses` from all clients), so one stranger's junk
 * guesses do not kill the owner's code. Throws 400 `invalid_email`; 401 `invalid_code`; 429.
 */
export async function findCode(deps: AuthDeps, input: VerifyCodeInput): Promise<FoundCode> {
  const strategy = codeStrategy(deps);
  const email = normalizeEmail(input.email);
  await ensureAuthIndexes(deps);
  const collection = deps.db.collection(strategy.collection);
  const client = addressKey(input.request?.ip ?? '');
  const guess = await hitRateLimit(deps, 'guess', `${client}\n${email}`, {
    max: strategy.maxAttempts,
    windowMs: strategy.expMs,
  });
  const code = typeof input.code === 'string' ? input.code.trim() : null;
  const record =
    code !== null && code.length === strategy.length && /^\d+$/.test(code)
      ? await collection.findOne({ hash: codeHash(deps, email, code) })
      : null;
  if (record === null || code === null) {
    await countMiss(collection, email, strategy.maxGuesses, deps.options.clock());
    throw new AuthError('invalid_code', 'Wrong or unknown code');
  }
  // Not a wrong guess: only misses are charged to the client.
  await guess.release();
  return { email, code, record };
}

/**
 * Uses a found code: usable (else 409 `already_used`, 410 `token_expired`, 401 for a dead code),
 * `doVerify` / `doRetrieve` pass, one atomic claim, the user created if missing (else 404
 * `user_not_found`): a new session.
 */
export async function signInWithCode(
  deps: AuthDeps,
  found: FoundCode,
  request: AuthRequest | undefined,
): Promise<AuthSession> {
  const strategy = codeStrategy(deps);
  const user = await verifySecret(deps, {
    strategy,
    collection: deps.db.collection(strategy.collection),
    record: found.record,
    token: found.code,
    request,
    hooks: [strategy.doVerify, strategy.doRetrieve],
    claimFilter: { attempts: { $lt: strategy.maxGuesses } },
  });
  return createSession(deps, user);
}

/**
 * `POST /auth/magic-code/verify` `{ email, code }` (and the code link of an API client, or
 * confirmed on its page): signs in with a code. -> 200 `{ token, user, expiresAt }` (a session).
 * A wrong guess is charged as {@link findCode} says. Throws 400 `invalid_email`; 401
 * `invalid_code` (wrong, unknown or dead code); 429; 410 `token_expired`; 409 `already_used`; 404
 * `user_not_found`; a `doVerify`/`doRetrieve` abort.
 */
export async function verifyCode(deps: AuthDeps, input: VerifyCodeInput): Promise<AuthSession> {
  return signInWithCode(deps, await findCode(deps, input), input.request);
}
