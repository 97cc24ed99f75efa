import type { AuthDeps } from '../deps';
import { ensureAuthIndexes } from '../deps';
import { assertUsable } from '../secret-store';
import { findLink } from './strategies';

/** What the confirmation page shows about the request that asked for a link. */
export interface LinkInspection {
  /** `confirm` for a poll link (approve with POST); `sign_in` for a plain link (GET signs in). */
  status: 'confirm' | 'sign_in';
  requestedAt: Date;
  ip: string | null;
  userAgent: string | null;
  expiresAt: Date;
}

/**
 * Reads a link without changing anything (for `GET` on a poll link and for `HEAD`).
 * -> the request's time, IP and user agent. Throws 404 `token_not_found`, 410 `token_expired`,
 * 409 `already_used`.
 */
export async function inspectLink(deps: AuthDeps, input: { token: unknown }): Promise<LinkInspection> {
  await ensureAuthIndexes(deps);
  const { record } = await findLink(deps, input.token);
  assertUsable(record, deps.options.clock());
  const requestedBy = (record.requestedBy ?? {}) as { ip?: unknown; userAgent?: unknown };
  return {
    status: record.poll === true ? 'confirm' : 'sign_in',
    requestedAt: record.createdAt as Date,
    ip: typeof requestedBy.ip === 'string' ? requestedBy.ip : null,
    userAgent: typeof requestedBy.userAgent === 'string' ? requestedBy.userAgent : null,
    expiresAt: record.expiresAt as Date,
  };
}
