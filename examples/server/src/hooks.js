import { revokeUserSessions } from '@store/auth-magic';

/**
 * The example's sign-in hook: a user document marked `blocked: true` cannot sign in with a
 * code or a link. Hooks run before anything changes; throwing an error with a `status` (and a
 * snake_case `code`) answers with them. Unit-tested with `@store/auth-magic/testing`.
 * @param {{ user: Record<string, unknown> | null }} context
 */
export async function refuseBlockedUsers({ user }) {
  if (user?.blocked === true) {
    throw Object.assign(new Error('This account is blocked'), { status: 403, code: 'account_blocked' });
  }
}

/**
 * Blocks a user, for an operator's script or an admin route: marks the document `blocked: true`
 * (which `@store/auth-magic`'s default `isBlocked` reads: sign-in answers 403 `account_blocked`
 * and any session of theirs is refused) and ends every session of the user at once. Returns how
 * many sessions ended.
 * @param {import('@store/auth-magic').AuthDeps} deps
 * @param {unknown} userId
 */
export async function blockUser(deps, userId) {
  await deps.db
    .collection(deps.options.userCollection)
    .updateOne({ _id: userId }, { $set: { blocked: true } });
  return revokeUserSessions(deps, userId);
}
