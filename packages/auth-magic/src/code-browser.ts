import { timingSafeEqual } from 'node:crypto';
import { hashSecret, TOKEN_PATTERN } from './secrets';
import { type HeaderBag, requestCookie } from './session-http';

/**
 * Name of the cookie that marks the browser that asked for a code: a random 256-bit id, set by
 * `POST /auth/magic-code/` (and by a code link's confirmation page when the browser has none).
 * Only its keyed hash is stored, with each code that browser asked for.
 */
export const CODE_BROWSER_COOKIE = 'store_code_browser';

/** A path a cookie attribute can hold as it is (no `;`, `,`, spaces or controls). */
export const COOKIE_PATH = /^\/[\x21-\x2b\x2d-\x3a\x3c-\x7e]*$/;

/** The browser id a request carries, or `null` when it has none shaped like one. */
export function codeBrowserFromHeaders(headers: HeaderBag): string | null {
  const id = requestCookie(headers, CODE_BROWSER_COOKIE);
  return id !== undefined && TOKEN_PATTERN.test(id) ? id : null;
}

/**
 * The `Set-Cookie` value carrying a browser id: `HttpOnly; SameSite=Lax`, under `path` (the code
 * routes), for `maxAge` seconds (a code's lifetime), `Secure` when the store is served over https.
 */
export function codeBrowserCookie(
  id: string,
  options: { secure: boolean; maxAge: number; path: string },
): string {
  if (!TOKEN_PATTERN.test(id)) throw new TypeError('codeBrowserCookie: not a browser id');
  if (!COOKIE_PATH.test(options.path)) throw new TypeError('codeBrowserCookie: bad path');
  const maxAge = Math.max(0, Math.floor(options.maxAge));
  const secure = options.secure ? '; Secure' : '';
  return `${CODE_BROWSER_COOKIE}=${id}; Path=${options.path}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** The keyed hash of a browser id, as stored with the codes that browser asked for. */
export function codeBrowserHash(secret: string, id: string): string {
  return hashSecret(secret, 'code-browser', id);
}

/**
 * The proof a code link's confirmation page embeds in its form: a keyed hash of the browser id
 * (from the cookie, which the page never shows), the address and the code. Only a page the
 * store rendered for this browser and this link has it.
 */
export function codeConfirmProof(secret: string, id: string, email: string, code: string): string {
  return hashSecret(secret, 'code-confirm', id, email, code);
}

/** Whether `sent` is the proof for this browser, address and code (compared in constant time). */
export function isCodeConfirmProof(
  secret: string,
  sent: string,
  proof: { id: string; email: string; code: string },
): boolean {
  const expected = Buffer.from(codeConfirmProof(secret, proof.id, proof.email, proof.code));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
