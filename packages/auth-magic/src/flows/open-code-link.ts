import { codeBrowserHash } from '../code-browser';
import type { AuthDeps } from '../deps';
import type { AuthRequest } from '../options';
import { assertUsable } from '../secret-store';
import type { AuthSession } from '../sessions';
import { findCode, signInWithCode } from './verify-code';

/** Input of {@link openCodeLink}: the link's address and code, and the browser that opens it. */
export interface OpenCodeLinkInput {
  email: unknown;
  code: unknown;
  /** The id of the browser that opens the link (its `store_code_browser` cookie), or `null`. */
  browser: string | null;
  request?: AuthRequest;
}

/**
 * What opening a code link did: signed this browser in (it asked for the code), or nothing: the
 * browser must confirm that it signs in as `email` (normalized, as `code`).
 */
export type CodeLinkResult =
  | { status: 'signed_in'; session: AuthSession }
  | { status: 'confirm'; email: string; code: string };

/**
 * `GET /auth/magic-code/:email/:code` in a browser. The code is checked as `verifyCode` checks it
 * (a wrong one is a counted miss: 401 `invalid_code`; used, expired, dead codes and 429 alike); then, when `browser`
 * is one of the browsers that asked for this code, it is used and this browser signed in.
 * Otherwise nothing changes (`confirm`): a link opened in a browser that did not ask for it (a
 * page of another site sending the victim's browser to the attacker's own code link, to sign it
 * in to the attacker's account) signs in only after a deliberate confirmation naming the account.
 */
export async function openCodeLink(deps: AuthDeps, input: OpenCodeLinkInput): Promise<CodeLinkResult> {
  const found = await findCode(deps, input);
  const browsers = found.record.browsers;
  const known =
    input.browser !== null &&
    Array.isArray(browsers) &&
    browsers.includes(codeBrowserHash(deps.options.secret, input.browser));
  if (known) return { status: 'signed_in', session: await signInWithCode(deps, found, input.request) };
  assertUsable(found.record, deps.options.clock());
  return { status: 'confirm', email: found.email, code: found.code };
}
