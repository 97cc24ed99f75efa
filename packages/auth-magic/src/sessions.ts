import { idToString } from '@store/common';
import type { EndedSessions, RequestSession } from '@store/core';
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

/** A live session as a request carries it: `id` names it among the user's (never its token). */
export interface FoundSession {
  /** The `_id` of the session's document, as a string. */
  id: string;
  user: AuthDocument;
  expiresAt: Date;
}

/** The stored `_id` of each session {@link findSession} found, for {@link checkSessions}. */
const storedIds = new WeakMap<RequestSession, unknown>();

/** Tells the store (when the flows run inside one) that sessions ended: their event streams end. */
function reportEnded(deps: AuthDeps, ended: EndedSessions): void {
  deps.seams?.sessionsEnded(ended);
}

/**
 * The live session a token names (its id, user and expiry), or null (unknown, malformed,
 * expired, revoked, user gone, user blocked). One equality lookup on the unique `hash` index (the
 * expiry is checked here, not in the filter), then one by the user's `_id`. A session of a
 * blocked user revokes every session of that user.
 */
export async function findSession(deps: AuthDeps, token: string): Promise<FoundSession | null> {
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
  const found: FoundSession = { id: idToString(session._id), user, expiresAt: session.expiresAt };
  storedIds.set(found, session._id);
  return found;
}

/** A key telling stored ids apart by type too (`1` and `"1"` are two users). */
const idKey = (id: unknown): string => `${typeof id}:${idToString(id)}`;

/**
 * For each session {@link findSession} found, whether it is still live: not revoked, not
 * expired, its user still there and not blocked. Two queries however many sessions: the
 * sessions by `_id`, then their users by `_id`. A session `findSession` did not find is not live.
 */
export async function checkSessions(deps: AuthDeps, sessions: readonly RequestSession[]): Promise<boolean[]> {
  const ids = sessions.map((session) => storedIds.get(session));
  const known = ids.filter((id) => id !== undefined);
  if (known.length === 0) return sessions.map(() => false);
  const now = deps.options.clock().getTime();
  const stored = await deps.db
    .collection(deps.options.sessionsCollection)
    .find({ _id: { $in: known } })
    .toArray();
  const unexpired = stored.filter(({ expiresAt }) => expiresAt instanceof Date && expiresAt.getTime() > now);
  const userIds = [...new Map(unexpired.map(({ userId }) => [idKey(userId), userId])).values()];
  const users =
    userIds.length === 0
      ? []
      : await deps.db
          .collection(deps.options.userCollection)
          .find({ _id: { $in: userIds } })
          .toArray();
  const allowed = new Set(users.filter((user) => !isBlockedUser(deps, user)).map(({ _id }) => idKey(_id)));
  const live = new Set(
    unexpired.filter(({ userId }) => allowed.has(idKey(userId))).map(({ _id }) => idKey(_id)),
  );
  return ids.map((id) => id !== undefined && live.has(idKey(id)));
}

/**
 * Ends every session of a user at once (sign-out everywhere, a blocked or deleted account), and
 * their event streams: returns how many there were. Also on the plugin instance as
 * `revokeUserSessions(userId)`.
 */
export async function revokeUserSessions(deps: AuthDeps, userId: unknown): Promise<number> {
  const { deletedCount } = await deps.db.collection(deps.options.sessionsCollection).deleteMany({ userId });
  reportEnded(deps, { userId });
  return deletedCount;
}

/** Deletes the session at once, and ends its event streams; `true` when there was one. */
export async function revokeSession(deps: AuthDeps, token: string): Promise<boolean> {
  if (!TOKEN_PATTERN.test(token)) return false;
  const sessions = deps.db.collection(deps.options.sessionsCollection);
  const session = await sessions.findOne({ hash: sessionHash(deps, token) }, { projection: { _id: 1 } });
  if (session === null) return false;
  const { deletedCount } = await sessions.deleteOne({ _id: session._id });
  reportEnded(deps, { sessionIds: [idToString(session._id)] });
  return deletedCount > 0;
}
