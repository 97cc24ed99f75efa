import { type PageResponse, pageHeaders, STYLE } from './confirm-page';
import { escapeHtml } from './html';

/** What the confirmation page of a code link shows and sends. */
export interface CodeConfirmation {
  /** The account the link signs in to: the address, normalized. */
  email: string;
  /** The proof its form sends back (see `codeConfirmProof`): a hex HMAC. */
  proof: string;
}

/**
 * The answer to a code link opened in a browser that did not ask for the code: a small
 * server-rendered page naming the account in full ("Sign in as ada@example.test?"), whose button
 * POSTs the proof back to the very URL the browser opened. The whole address is shown because
 * it is the one thing that tells a victim the account is not theirs (a masked `a***@example.com`
 * would let an attacker's look-alike address pass); it is already in the link. Never cached,
 * never framed, no referrer, nothing but the form.
 */
export function codeConfirmPage(confirmation: CodeConfirmation): PageResponse {
  if (!/^[0-9a-f]{64}$/.test(confirmation.proof)) throw new TypeError('codeConfirmPage: bad proof');
  const email = escapeHtml(confirmation.email);
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>Sign in as ${email}?</title><style>${STYLE}</style></head>
<body><h1>Sign in as ${email}?</h1>
<p>This sign-in link was opened in a browser that did not ask for the code. Continue only if you
asked for a code for <strong>${email}</strong> yourself: a link someone else sends you signs you
in to their account, and what you write there is theirs.</p>
<form method="post"><input type="hidden" name="confirm" value="${confirmation.proof}"><button type="submit">Sign in as ${email}</button></form>
<p>If this is not your address, close this page: nothing happens.</p>
</body></html>
`;
  return { status: 200, headers: pageHeaders("'self'"), body };
}
