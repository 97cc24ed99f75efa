import { describe, expect, it } from 'vitest';
import {
  codeBrowserCookie,
  codeBrowserFromHeaders,
  codeBrowserHash,
  codeConfirmProof,
  isCodeConfirmProof,
} from './code-browser';
import { generateToken } from './secrets';

const SECRET = 'a-secret-of-16+chars';
const id = generateToken();

describe('the code browser cookie', () => {
  it('is HttpOnly, SameSite=Lax, under the code routes, for a code lifetime; Secure over https', () => {
    expect(codeBrowserCookie(id, { secure: false, maxAge: 600, path: '/api/auth/magic-code' })).toBe(
      `store_code_browser=${id}; Path=/api/auth/magic-code; HttpOnly; SameSite=Lax; Max-Age=600`,
    );
    expect(codeBrowserCookie(id, { secure: true, maxAge: 90.7, path: '/auth/magic-code' })).toMatch(
      /; Max-Age=90; Secure$/,
    );
  });

  it.each([
    ['an id that is not a token', 'x;y', '/auth'],
    ['a path with a semicolon', id, '/a;b'],
    ['a relative path', id, 'auth'],
  ])('refuses %s', (_label, value, path) => {
    expect(() => codeBrowserCookie(value, { secure: false, maxAge: 1, path })).toThrow(TypeError);
  });

  it('is read back only when shaped like an id', () => {
    expect(codeBrowserFromHeaders({ cookie: `a=1; store_code_browser=${id}` })).toBe(id);
    expect(codeBrowserFromHeaders({ cookie: 'store_code_browser=short' })).toBeNull();
    expect(codeBrowserFromHeaders({})).toBeNull();
  });

  it('is stored as a keyed hash, and the page proof binds it to the address and the code', () => {
    expect(codeBrowserHash(SECRET, id)).toMatch(/^[0-9a-f]{64}$/);
    expect(codeBrowserHash(SECRET, id)).not.toContain(id);
    const proof = codeConfirmProof(SECRET, id, 'ada@example.test', '123456');
    expect(isCodeConfirmProof(SECRET, proof, { id, email: 'ada@example.test', code: '123456' })).toBe(true);
    for (const other of [
      { id: generateToken(), email: 'ada@example.test', code: '123456' },
      { id, email: 'bob@example.test', code: '123456' },
      { id, email: 'ada@example.test', code: '123457' },
    ]) {
      expect(isCodeConfirmProof(SECRET, proof, other)).toBe(false);
    }
    expect(isCodeConfirmProof(SECRET, 'short', { id, email: 'ada@example.test', code: '123456' })).toBe(
      false,
    );
  });
});
