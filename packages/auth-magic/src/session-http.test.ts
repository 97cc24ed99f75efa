import { describe, expect, it } from 'vitest';
import { generateToken } from './secrets';
import { sessionCookie, sessionTokenFromHeaders } from './session-http';

const token = generateToken();
const other = generateToken();

describe('sessionTokenFromHeaders', () => {
  it.each([
    ['a Bearer header', { authorization: `Bearer ${token}` }, token],
    ['any header case and scheme case', { Authorization: `bearer ${token}` }, token],
    ['the store_session cookie', { cookie: `theme=dark; store_session=${token}; x=1` }, token],
    [
      'Bearer before the cookie',
      { authorization: `Bearer ${token}`, cookie: `store_session=${other}` },
      token,
    ],
    ['an array header value', { authorization: [`Bearer ${token}`] }, token],
  ])('reads %s', (_label, headers, expected) => {
    expect(sessionTokenFromHeaders(headers)).toBe(expected);
  });

  it.each([
    ['no header', {}],
    ['a Basic header', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a malformed token', { authorization: 'Bearer abc' }],
    ['a token with extra words', { authorization: `Bearer ${token} x` }],
    ['another cookie name', { cookie: `xstore_session=${token}` }],
    ['an injected value', { cookie: `store_session=${token.slice(0, 40)}\r\nX: y` }],
  ])('finds nothing in %s', (_label, headers) => {
    expect(sessionTokenFromHeaders(headers)).toBeNull();
  });
});

describe('sessionCookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, with Max-Age, Secure only on https', () => {
    expect(sessionCookie(token, { secure: false, maxAge: 90.7 })).toBe(
      `store_session=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=90`,
    );
    expect(sessionCookie(token, { secure: true, maxAge: 60 })).toMatch(/; Secure$/);
  });

  it('clears with an empty value and Max-Age=0', () => {
    expect(sessionCookie('', { secure: false, maxAge: 0 })).toBe(
      'store_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0',
    );
  });

  it('refuses a value that could inject attributes or headers', () => {
    expect(() => sessionCookie('x; Domain=evil.example', { secure: false, maxAge: 1 })).toThrow(TypeError);
  });
});
