import type { AuthDeps } from '../deps';
import { normalizeEmail } from '../email';
import { AuthError } from '../errors';
import type { AuthRequest } from '../options';
import { generateToken } from '../secrets';
import { issueSecret } from './issue-secret';
import type { SentResult } from './request-code';
import { linkHash, linkStrategy, pollHash } from './strategies';

/** Input of {@link requestLink}: the parsed JSON body's `email` and `poll` (unchecked) and the request. */
export interface RequestLinkInput {
  email: unknown;
  poll?: unknown;
  request?: AuthRequest;
}

/** Answer of {@link requestLink}: `pollToken` only when `poll` was true. */
export interface RequestLinkResult extends SentResult {
  pollToken?: string;
}

/**
 * `POST /auth/magic-link/`: mails the absolute link `<baseUrl>/auth/magic-link/<token>` (never
 * built from a Host header). With `poll: true` the asking device also gets a `pollToken` for
 * `GET /auth/magic-token/:token`, and the link only signs it in after an approving POST.
 * -> 202 `{ sent, expiresAt, pollToken? }`. Throws 400 `invalid_email` / `invalid_body`,
 * 429, 502/503, or a `doGenerate` abort.
 */
export async function requestLink(deps: AuthDeps, input: RequestLinkInput): Promise<RequestLinkResult> {
  const strategy = linkStrategy(deps);
  const email = normalizeEmail(input.email);
  if (input.poll !== undefined && typeof input.poll !== 'boolean') {
    throw new AuthError('invalid_body', '`poll` must be true or false');
  }
  const pollToken = input.poll === true ? generateToken() : undefined;
  const extra =
    pollToken === undefined
      ? { poll: false }
      : { poll: true, pollHash: pollHash(deps, pollToken), pollState: 'pending' };
  const { sent, expiresAt } = await issueSecret(
    deps,
    {
      strategy,
      draw: generateToken,
      hash: (token) => linkHash(deps, token),
      url: (token) => `${deps.options.baseUrl}/auth/magic-link/${token}`,
      extra,
      // A poll request needs its own poll token: past the quota it is a 429, never an extension.
      extendable: pollToken === undefined ? { poll: false } : null,
    },
    email,
    input.request,
  );
  return pollToken === undefined ? { sent, expiresAt } : { sent, expiresAt, pollToken };
}
