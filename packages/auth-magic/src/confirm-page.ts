import { createHash } from 'node:crypto';
import type { LinkInspection } from './flows/inspect-link';
import { escapeHtml } from './html';
import type { ResolvedAuthOptions } from './resolved-options';
import { TOKEN_PATTERN } from './secrets';

/** A plain response, as the core's handler returns them. */
export interface PageResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The style sheet of the confirmation pages (allowed by its hash in their Content-Security-Policy). */
export const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}' +
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}' +
  'dd{margin:0;word-break:break-all}button{font:inherit;padding:.6rem 1.2rem;cursor:pointer}';
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * Headers of a confirmation page: never cached, no referrer (the URL holds the secret), never
 * framed (no clickjacking), nothing runs; its form may post only to `formAction` (a CSP source).
 */
export function pageHeaders(formAction: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  };
}

function row(label: string, value: string | null): string {
  return `<dt>${label}</dt><dd>${escapeHtml(value ?? 'unknown')}</dd>`;
}

/**
 * The answer to `GET /auth/magic-link/:token` for a poll link: the small server-rendered page
 * showing who asked (time, IP, user agent; all escaped) with a button that POSTs the approval to
 * `<baseUrl>/auth/magic-link/<token>`. With `magicLink.pollApproval` set, a 302 to the host's
 * own page with `?token=` instead. Both are `no-store` with `Referrer-Policy: no-referrer`.
 */
export function confirmPage(
  options: ResolvedAuthOptions,
  token: string,
  inspection: LinkInspection,
): PageResponse {
  if (!TOKEN_PATTERN.test(token) || options.baseUrl === null)
    throw new TypeError('confirmPage: bad token or no baseUrl');
  const action = `${options.baseUrl}/auth/magic-link/${token}`;
  const redirect = options.magicLink?.pollApproval ?? null;
  if (redirect !== null) {
    const location = `${redirect}${redirect.includes('?') ? '&' : '?'}token=${token}`;
    return {
      status: 302,
      headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
      body: '',
    };
  }
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>Confirm sign-in</title><style>${STYLE}</style></head>
<body><h1>Confirm sign-in</h1>
<p>A device asked to sign in with your e-mail address. Approve only if it was you.</p>
<dl>${row('Requested at', inspection.requestedAt.toISOString())}${row('IP address', inspection.ip)}${row('Device', inspection.userAgent)}</dl>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Yes, sign in that device</button></form>
<p>If this was not you, close this page: nothing happens.</p>
</body></html>
`;
  return { status: 200, headers: pageHeaders(new URL(options.baseUrl).origin), body };
}
