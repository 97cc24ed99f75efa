import { addressKey } from '@store/core';
import type { AuthDeps } from './deps';
import { AuthError } from './errors';
import { hitRateLimit, type RateHit } from './rate-limit';

/** The hits a send took, or the per-address refusal when the address's mail quota is spent. */
export interface SendLimits {
  /** The mail counted against the address's quota (taken back when the send fails). */
  mail: RateHit | null;
  refusal: AuthError | null;
}

/**
 * Takes one request from the client's limit (its address as core keys it: IPv4 address, IPv6 /64,
 * read through the store's `trustedProxies`; a refusal is thrown) and
 * one mail from the address's quota of this strategy (`quota` names it). A spent address quota
 * is returned, not thrown: the caller may extend the newest live secret instead of sending.
 */
export async function takeSendLimits(
  deps: AuthDeps,
  quota: string,
  email: string,
  ip: string | null | undefined,
): Promise<SendLimits> {
  const { perIp, perAddress } = deps.options.rateLimit;
  if (perIp !== null && typeof ip === 'string' && ip !== '') {
    await hitRateLimit(deps, 'ip', addressKey(ip), perIp);
  }
  if (perAddress === null) return { mail: null, refusal: null };
  try {
    return { mail: await hitRateLimit(deps, 'address', `${quota}\n${email}`, perAddress), refusal: null };
  } catch (error) {
    if (error instanceof AuthError && error.code === 'too_many_requests')
      return { mail: null, refusal: error };
    throw error;
  }
}
