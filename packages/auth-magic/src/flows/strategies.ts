import { OptionError } from '@store/common';
import type { AuthDocument } from '../db';
import type { AuthDeps } from '../deps';
import { AuthError } from '../errors';
import type { ResolvedMagicCode, ResolvedMagicLink } from '../resolved-options';
import { hashSecret, TOKEN_PATTERN } from '../secrets';

/** `magicLink` options, or 500 `invalid_config` when the strategy is not enabled. */
export function linkStrategy(deps: AuthDeps): ResolvedMagicLink {
  const strategy = deps.options.magicLink;
  if (strategy === null) throw new OptionError('magicLink', 'is not enabled');
  return strategy;
}

/** `magicCode` options, or 500 `invalid_config` when the strategy is not enabled. */
export function codeStrategy(deps: AuthDeps): ResolvedMagicCode {
  const strategy = deps.options.magicCode;
  if (strategy === null) throw new OptionError('magicCode', 'is not enabled');
  return strategy;
}

/** Hash of a link token, the key it is stored and looked up under. */
export function linkHash(deps: AuthDeps, token: string): string {
  return hashSecret(deps.options.secret, 'link', token);
}

/** Hash of a poll token. */
export function pollHash(deps: AuthDeps, token: string): string {
  return hashSecret(deps.options.secret, 'poll', token);
}

/** Hash of a code; the address is part of it, so a code only works for the address it was sent to. */
export function codeHash(deps: AuthDeps, email: string, code: string): string {
  return hashSecret(deps.options.secret, 'code', email, code);
}

/** The stored link for a token, or 404 `token_not_found` (malformed tokens never reach the database). */
export async function findLink(
  deps: AuthDeps,
  token: unknown,
): Promise<{ token: string; record: AuthDocument }> {
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) {
    throw new AuthError('token_not_found', 'Unknown sign-in link');
  }
  const record = await deps.db
    .collection(linkStrategy(deps).collection)
    .findOne({ hash: linkHash(deps, token) });
  if (record === null) throw new AuthError('token_not_found', 'Unknown sign-in link');
  return { token, record };
}
