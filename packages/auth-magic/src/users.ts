import { type AuthDocument, isDuplicateKeyError } from './db';
import type { AuthDeps } from './deps';
import { AuthError } from './errors';

/** The user whose `emailField` holds this (normalized) address, or null. */
export function findUser(deps: AuthDeps, emailField: string, email: string): Promise<AuthDocument | null> {
  return deps.db.collection(deps.options.userCollection).findOne({ [emailField]: email });
}

/**
 * The user to sign in after a successful verification: the existing one, or with `createUser`
 * a new one (`{ <emailField>: email, createdAt }`) created by one atomic upsert; the unique
 * index on the address makes a concurrent second insert fail, and then the first one is read. Without `createUser`: 404 `user_not_found`.
 */
export async function userForSignIn(
  deps: AuthDeps,
  emailField: string,
  email: string,
  existing: AuthDocument | null,
): Promise<AuthDocument> {
  assertUserAllowed(deps, existing);
  if (existing !== null) return existing;
  const users = deps.db.collection(deps.options.userCollection);
  const upsert = () =>
    users.findOneAndUpdate(
      { [emailField]: email },
      { $setOnInsert: { [emailField]: email, createdAt: deps.options.clock() } },
      { upsert: true, returnDocument: 'after' },
    );
  let user: AuthDocument | null;
  try {
    user = await upsert();
  } catch (error) {
    // Another sign-in of the same new address inserted it first (the unique index): read it.
    if (!isDuplicateKeyError(error)) throw error;
    user = await findUser(deps, emailField, email);
  }
  if (user === null) throw new AuthError('user_not_found', 'No user has this e-mail address');
  return user;
}

/** True when `isBlocked` says the user document is blocked. */
export function isBlockedUser(deps: AuthDeps, user: AuthDocument): boolean {
  return deps.options.isBlocked?.(user) === true;
}

/**
 * Throws before anything changes: 404 `user_not_found` when the user is missing and may not be
 * created, 403 `account_blocked` when `isBlocked` says so.
 */
export function assertUserAllowed(deps: AuthDeps, user: AuthDocument | null): void {
  if (user === null && !deps.options.createUser) {
    throw new AuthError('user_not_found', 'No user has this e-mail address');
  }
  if (user !== null && isBlockedUser(deps, user))
    throw new AuthError('account_blocked', 'This account is blocked');
}
