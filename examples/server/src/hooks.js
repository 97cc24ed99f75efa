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
