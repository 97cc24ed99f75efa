import type { AuthRoute } from '../context';

/**
 * `HEAD` on a link (`/auth/magic-link/:token`, `/auth/magic-code/:email/:code`): 204 without
 * reading or changing anything. Mail scanners send these; they must never sign anyone in.
 */
export const headLinkRoute: AuthRoute = async () => ({ status: 204 });
