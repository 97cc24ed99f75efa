import type { AuthHookContext } from '@store/auth-magic';

/** Refuses sign-in to a user document marked `blocked: true` (403 `account_blocked`). */
export declare function refuseBlockedUsers(context: Pick<AuthHookContext, 'user'>): Promise<void>;
