import type { AuthDeps, AuthHookContext } from '@store/auth-magic';

/** Refuses sign-in to a user document marked `blocked: true` (403 `account_blocked`). */
export declare function refuseBlockedUsers(context: Pick<AuthHookContext, 'user'>): Promise<void>;

/** Marks the user `blocked: true` and revokes every session of theirs; how many sessions ended. */
export declare function blockUser(deps: AuthDeps, userId: unknown): Promise<number>;
