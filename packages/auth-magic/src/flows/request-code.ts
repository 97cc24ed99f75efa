import { codeBrowserHash } from '../code-browser';
import type { AuthDeps } from '../deps';
import { normalizeEmail } from '../email';
import type { AuthRequest } from '../options';
import { generateCode, TOKEN_PATTERN } from '../secrets';
import { issueSecret } from './issue-secret';
import { codeHash, codeStrategy } from './strategies';

/**
 * Input of {@link requestCode}: the parsed JSON body's `email` (unchecked) and the request;
 * `browser`, the id of the browser that asks (its `store_code_browser` cookie, a `generateToken()`
 * value; anything else counts as none): the code's link then signs that browser in with one
 * click, and asks any other browser to confirm (see `openCodeLink`).
 */
export interface RequestCodeInput {
  email: unknown;
  request?: AuthRequest;
  browser?: string | null;
}

/** Browsers remembered per code: a request past the quota adds its browser to the code it extends. */
const MAX_BROWSERS = 5;

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
  const { baseUrl, secret } = deps.options;
  const browser =
    typeof input.browser === 'string' && TOKEN_PATTERN.test(input.browser)
      ? [codeBrowserHash(secret, input.browser)]
      : [];
  const { sent, expiresAt } = await issueSecret(
    deps,
    {
      strategy,
      draw: () => generateCode(strategy.length),
      hash: (code) => codeHash(deps, email, code),
      url: (code) =>
        baseUrl === null ? '' : `${baseUrl}/auth/magic-code/${encodeURIComponent(email)}/${code}`,
      extra: { browsers: browser },
      extendable: {},
      onExtend:
        browser.length === 0 ? {} : { $push: { browsers: { $each: browser, $slice: -MAX_BROWSERS } } },
    },
    email,
    input.request,
  );
  return { sent, expiresAt };
}
