import type { AuthDeps } from '../deps';
import { normalizeEmail } from '../email';
import type { AuthRequest } from '../options';
import { generateCode } from '../secrets';
import { issueSecret } from './issue-secret';
import { codeHash, codeStrategy } from './strategies';

/** Input of {@link requestCode}: the parsed JSON body's `email` (unchecked) and the request. */
export interface RequestCodeInput {
  email: unknown;
  request?: AuthRequest;
}

/**
 * Answer of a request for a code or link: the same whether or not a user has the address.
 * `sent: false` past the address's mail quota: nothing was sent, and the newest message of
 * this kind already sent is valid until `expiresAt`.
 */
export interface SentResult {
  sent: boolean;
  expiresAt: Date;
}

/**
 * `POST /auth/magic-code/`: sends a fresh code of `length` digits to the address.
 * -> 202 `{ sent, expiresAt }` (`sent: false`: quota spent, the newest live code extended). Throws 400 `invalid_email`, 429 `too_many_requests`
 * (with `Retry-After`), 502 `mail_failed` / 503 `mail_unavailable`, or a `doGenerate` abort.
 */
export async function requestCode(deps: AuthDeps, input: RequestCodeInput): Promise<SentResult> {
  const strategy = codeStrategy(deps);
  const email = normalizeEmail(input.email);
  const { baseUrl } = deps.options;
  const { sent, expiresAt } = await issueSecret(
    deps,
    {
      strategy,
      draw: () => generateCode(strategy.length),
      hash: (code) => codeHash(deps, email, code),
      url: (code) =>
        baseUrl === null ? '' : `${baseUrl}/auth/magic-code/${encodeURIComponent(email)}/${code}`,
      extra: {},
      extendable: {},
    },
    email,
    input.request,
  );
  return { sent, expiresAt };
}
