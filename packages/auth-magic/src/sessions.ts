import type { AuthDocument } from './db';
import type { AuthDeps } from './deps';
import { generateToken, hashSecret, TOKEN_PATTERN } from './secrets';
import { assertUserAllowed, isBlockedUser } from './users';

/** A session handed to the client: the opaque token (only its hash is stored), the user, the expiry. */
export interface AuthSession {
  token: string;
  user: AuthDocument;
  expiresAt: Date;
}

/** Name of the session cookie. */
export const SESSION_COOKIE = 'store_session';

function sessionHash(deps: AuthDeps, token: string): string {
  return hashSecret(deps.options.secret, 'session', token);
}

/** Opens a session for a user: a fresh 256-bit token, stored hashed with `createdAt` and `expiresAt`. */
export async function createSession(deps: AuthDeps, user: AuthDocument): Promise<AuthSession> {
  assertUserAllowed(deps, user);
  const token = generateToken();
  const now = deps.options.clock();
  const expiresAt = new Date(now.getTime() + deps.options.sessionTtlMs);
  await deps.db
    .collection(deps.options.sessionsCollection)
    .insertOne({ hash: sessionHash(deps, token), userId: user._id, createdAt: now, expiresAt });
  return { token, user, expiresAt };
}

/**
 * The user and expiry of a live session, or null (unknown, malformed, expired, revoked, user
 * gone, user blocked). One equality lookup on the unique `hash` index (the expiry is checked
 * here, not in the filter), then one by the user's `_id`. A session of a blocked user revokes
 * every session of that user.
 */
export async function findSession(
  deps: AuthDeps,
  token: string,
): Promise<{ user: AuthDocument; expiresAt: Date } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const session = await deps.db
    .collection(deps.options.sessionsCollection)
    .findOne({ hash: sessionHash(deps, token) });
  if (session === null || !(session.expiresAt instanceof Date)) return null;
  if (session.expiresAt.getTime() <= deps.options.clock().getTime()) return null;
  const user = await deps.db.collection(deps.options.userCollection).findOne({ _id: session.userId });
  if (user === null) return null;
  if (isBlockedUser(deps, user)) {
    await revokeUserSessions(deps, user._id);
    return null;
  }
  return { user, expiresAt: session.expiresAt };
}

/**
 * Ends every session of a user at once (sign-out everywhere, a blocked or deleted account):
 * returns how many there were. Also on the plugin instance as `revokeUserSessions(userId)`.
 */
export async function revokeUserSessions(deps: AuthDeps, userId: unknown): Promise<number> {
  const { deletedCount } = await deps.db.collection(deps.options.sessionsCollection).deleteMany({ userId });
  return deletedCount;
}

/** Deletes the session at once; `true` when there was one. */
export async function revokeSession(deps: AuthDeps, token: string): Promise<boolean> {
  if (!TOKEN_PATTERN.test(token)) return false;
  const { deletedCount } = await deps.db
    .collection(deps.options.sessionsCollection)
    .deleteOne({ hash: sessionHash(deps, token) });
  return deletedCount > 0;
}
