import { AuthError } from './errors';

/** Longest address accepted (RFC 5321 path limit). */
const MAX_EMAIL_LENGTH = 254;

/**
 * The address grammar browsers apply to `<input type="email">` (WHATWG), with a dot required in
 * the domain. No spaces, quotes, CR/LF or NUL can pass, so an address never injects a header.
 */
const EMAIL_PATTERN =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * Validates and normalizes an address from hostile input: trimmed, lower-cased, checked.
 * Throws 400 `invalid_email` otherwise.
 */
export function normalizeEmail(input: unknown): string {
  if (typeof input !== 'string') throw new AuthError('invalid_email', '`email` must be a string');
  const email = input.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email)) {
    throw new AuthError('invalid_email', '`email` is not a valid e-mail address');
  }
  return email;
}
