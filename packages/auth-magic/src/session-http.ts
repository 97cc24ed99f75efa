import { TOKEN_PATTERN } from './secrets';
import { SESSION_COOKIE } from './sessions';

/** Request headers as a plain object (any case; Node lower-cases them). */
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The first value of header `name` (lower-case) a request carries. */
export function header(headers: HeaderBag, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return typeof value === 'string' ? value : value?.[0];
  }
  return undefined;
}

/** The value of cookie `name` a request carries, as sent. */
export function requestCookie(headers: HeaderBag, name: string): string | undefined {
  for (const pair of (header(headers, 'cookie') ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * The session token a request carries: `Authorization: Bearer <token>` first, else the
 * `store_session` cookie. Anything not shaped like a session token counts as none (`null`).
 */
export function sessionTokenFromHeaders(headers: HeaderBag): string | null {
  const bearer = /^Bearer[ ]+(\S+)\s*$/i.exec(header(headers, 'authorization') ?? '')?.[1];
  const cookie = requestCookie(headers, SESSION_COOKIE);
  const token = bearer ?? cookie;
  return token !== undefined && TOKEN_PATTERN.test(token) ? token : null;
}

/**
 * The `Set-Cookie` value carrying a session: `HttpOnly; SameSite=Lax; Path=/`, `Max-Age` in
 * seconds, `Secure` when the store is served over https. `sessionCookie('', { maxAge: 0 })` clears it (logout).
 */
export function sessionCookie(token: string, options: { secure: boolean; maxAge: number }): string {
  if (token !== '' && !TOKEN_PATTERN.test(token)) throw new TypeError('sessionCookie: not a session token');
  const maxAge = Math.max(0, Math.floor(options.maxAge));
  const secure = options.secure ? '; Secure' : '';
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}
