import type { AuthDocument } from '../db';
import type { AuthDeps } from '../deps';
import { ensureAuthIndexes } from '../deps';
import { hookContext, runHooks } from '../hooks';
import { buildMessage, sendMessage } from '../mail';
import type { AuthRequest } from '../options';
import { hitSendLimits } from '../rate-limit';
import type { ResolvedStrategy } from '../resolved-options';
import { insertSecret, retireBeyondMax, type SecretRecord } from '../secret-store';
import { findUser } from '../users';

/** How one strategy draws, hashes and links its secrets. */
export interface SecretKind {
  strategy: ResolvedStrategy;
  draw(): string;
  hash(secret: string): string;
  url(secret: string): string;
  /** Extra fields stored with the record (poll state). */
  extra: AuthDocument;
}

/** A request value kept for the confirmation page, bounded in size. */
function clip(value: string | null | undefined, max: number): string | null {
  return typeof value === 'string' ? value.slice(0, max) : null;
}

/** Draws before giving up on hash collisions (only codes can collide, about once in a million). */
const MAX_DRAWS = 5;

async function storeNewSecret(
  deps: AuthDeps,
  kind: SecretKind,
  base: Omit<SecretRecord, 'hash'>,
  user: AuthDocument | null,
  request: AuthRequest | undefined,
) {
  const collection = deps.db.collection(kind.strategy.collection);
  for (let draw = 0; draw < MAX_DRAWS; draw += 1) {
    const secret = kind.draw();
    await runHooks(
      [kind.strategy.doGenerate],
      hookContext(deps, { email: base.email, user, token: secret, request }),
    );
    const hash = kind.hash(secret);
    if (await insertSecret(collection, { ...kind.extra, ...base, hash })) return { secret, hash };
  }
  throw new Error('auth-magic: could not draw an unused secret');
}

/**
 * The request half of both strategies: limits, `doGenerate`, store the secret hashed, send it,
 * then retire the oldest active secrets beyond `max`. The same work and answer whether or not a
 * user has the address. If sending fails the new secret is deleted (nothing active is left
 * behind) and 502/503 is thrown; retirement only happens after a successful send.
 */
export async function issueSecret(
  deps: AuthDeps,
  kind: SecretKind,
  email: string,
  request: AuthRequest | undefined,
): Promise<{ expiresAt: Date; secret: string }> {
  await ensureAuthIndexes(deps);
  await hitSendLimits(deps, email, request?.ip);
  const user = await findUser(deps, kind.strategy.emailField, email);
  const now = deps.options.clock();
  const expiresAt = new Date(now.getTime() + kind.strategy.expMs);
  const requestedBy = { ip: clip(request?.ip, 64), userAgent: clip(request?.userAgent, 512) };
  const base = { email, state: 'active' as const, attempts: 0, createdAt: now, expiresAt, requestedBy };
  const { secret, hash } = await storeNewSecret(deps, kind, base, user, request);
  const collection = deps.db.collection(kind.strategy.collection);
  try {
    await sendMessage(
      deps.options.mailer,
      buildMessage(kind.strategy.email, email, { user, token: secret, url: kind.url(secret) }),
    );
  } catch (error) {
    await collection.deleteOne({ hash });
    throw error;
  }
  await retireBeyondMax(collection, email, kind.strategy.max, now);
  return { expiresAt, secret };
}
