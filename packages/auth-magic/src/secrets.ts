import { createHmac, randomBytes, randomInt } from 'node:crypto';

/** Bytes of randomness in link tokens, poll tokens and session tokens (256 bits). */
const TOKEN_BYTES = 32;

/** Shape of a token made by {@link generateToken}: 43 base64url characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh random token: {@link TOKEN_BYTES} bytes from `crypto`, base64url without padding. */
export function generateToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/**
 * A fresh numeric code of `length` digits. Each digit comes from `crypto.randomInt(10)`, which
 * rejects out-of-range draws, so every code is equally likely (no modulo bias).
 */
export function generateCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += String(randomInt(10));
  return code;
}

/**
 * Keyed hash of a secret: HMAC-SHA256 with the store secret over `purpose` and `parts` (joined
 * with a NUL, which validated inputs never contain), hex-encoded. Only this hash is stored,
 * and secrets are looked up by it, so no secret is ever compared in memory.
 */
export function hashSecret(key: string, purpose: string, ...parts: string[]): string {
  return createHmac('sha256', key)
    .update([purpose, ...parts].join('\0'))
    .digest('hex');
}
