import type { AuthDocument } from '../db';
import type { AuthDeps } from '../deps';
import { ensureAuthIndexes } from '../deps';
import { hookContext, runHooks } from '../hooks';
import { buildMessage, sendMessage } from '../mail';
import type { AuthRequest } from '../options';
import type { ResolvedStrategy } from '../resolved-options';
import { extendNewest, insertSecret, retireBeyondMax, type SecretRecord } from '../secret-store';
import { takeSendLimits } from '../send-limits';
import { findUser } from '../users';

/** How one strategy draws, hashes and links its secrets. */
export interface SecretKind {
  strategy: ResolvedStrategy;
  draw(): string;
  hash(secret: string): string;
  url(secret: string): string;
  /** Extra fields stored with the record (poll state). */
  extra: AuthDocument;
  /**
   * Which live secrets of the address a request past the mail quota may extend instead of
   * sending (`{}`: any; `null`: none, e.g. a poll link, whose poll token the asker needs).
   */
  extendable: AuthDocument | null;
  /** More update operators for the secret a request past the quota extends (never `$set`). */
  onExtend?: AuthDocument;
}

/** What a request did: sent a new secret, or (mail quota spent) extended the newest live one. */
export type IssueResult = { sent: true; expiresAt: Date; secret: string } | { sent: false; expiresAt: Date };

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
 * behind), the limits are not charged, and 502/503 is thrown; retirement only happens after a
 * successful send. Past the address's mail quota nothing is sent: the newest live secret of the
 * strategy (already in the mailbox) is extended by `exp` instead (`sent: false`), and only
 * without one the request is a 429; so strangers asking on an address's behalf cannot keep its
 * owner from signing in.
 */
export async function issueSecret(
  deps: AuthDeps,
  kind: SecretKind,
  email: string,
  request: AuthRequest | undefined,
): Promise<IssueResult> {
  await ensureAuthIndexes(deps);
  const collection = deps.db.collection(kind.strategy.collection);
  const now = deps.options.clock();
  const expiresAt = new Date(now.getTime() + kind.strategy.expMs);
  const limits = await takeSendLimits(deps, kind.strategy.collection, email, request?.ip);
  if (limits.refusal !== null) {
    const extended =
      kind.extendable === null
        ? false
        : await extendNewest(collection, email, kind.extendable, now, expiresAt, kind.onExtend);
    if (!extended) throw limits.refusal;
    return { sent: false, expiresAt };
  }
  const user = await findUser(deps, kind.strategy.emailField, email);
  const requestedBy = { ip: clip(request?.ip, 64), userAgent: clip(request?.userAgent, 512) };
  const base = { email, state: 'active' as const, attempts: 0, createdAt: now, expiresAt, requestedBy };
  let stored: { secret: string; hash: string } | undefined;
  try {
    stored = await storeNewSecret(deps, kind, base, user, request);
    await sendMessage(
      deps.options.mailer,
      buildMessage(kind.strategy.email, email, { user, token: stored.secret, url: kind.url(stored.secret) }),
      deps.options.sendTimeoutMs,
    );
  } catch (error) {
    // Nothing was sent: the address's quota is not charged, and no active secret is left behind.
    await limits.mail?.release();
    if (stored !== undefined) await collection.deleteOne({ hash: stored.hash });
    throw error;
  }
  await retireBeyondMax(collection, email, kind.strategy.max, now);
  return { sent: true, expiresAt, secret: stored.secret };
}
