import { describe, expect, it } from 'vitest';
import { AUTH_ERROR_CODES } from './error-codes';
import { AuthError, toHookError } from './errors';

describe('AuthError', () => {
  it('takes its status from the codes table and keeps headers', () => {
    const error = new AuthError('too_many_requests', 'slow down', { headers: { 'Retry-After': '30' } });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      status: 429,
      code: 'too_many_requests',
      detail: 'slow down',
      message: 'slow down',
    });
    expect(error.headers).toEqual({ 'Retry-After': '30' });
  });

  it('names a snake_case code and an HTTP error status for every entry', () => {
    for (const [code, status] of Object.entries(AUTH_ERROR_CODES)) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(status).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('toHookError', () => {
  it.each([
    [
      'an error with a status',
      Object.assign(new Error('members only'), { status: 402 }),
      402,
      'refused',
      'members only',
    ],
    [
      'a status and code',
      Object.assign(new Error('banned'), { status: 451, code: 'banned_user' }),
      451,
      'banned_user',
      'banned',
    ],
    ['a 403 without code', Object.assign(new Error('no'), { status: 403 }), 403, 'forbidden', 'no'],
    [
      'a plain error (its text stays private)',
      new TypeError('x is undefined'),
      403,
      'forbidden',
      'Refused by a hook',
    ],
    ['a non-error value', 'nope', 403, 'forbidden', 'Refused by a hook'],
    [
      'an out-of-range status',
      Object.assign(new Error('odd'), { status: 302 }),
      403,
      'forbidden',
      'Refused by a hook',
    ],
    [
      'a driver-style code',
      Object.assign(new Error('e'), { status: 409, code: 'ERR_X' }),
      409,
      'refused',
      'e',
    ],
  ])('maps %s', (_label, thrown, status, code, detail) => {
    expect(toHookError(thrown)).toMatchObject({ status, code, detail });
  });

  it('passes an AuthError through unchanged', () => {
    const error = new AuthError('user_not_found', 'gone');
    expect(toHookError(error)).toBe(error);
  });
});
