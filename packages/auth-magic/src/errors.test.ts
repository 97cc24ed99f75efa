import { describe, expect, it } from 'vitest';
import { AUTH_ERROR_CODES } from './error-codes';
import { AuthError } from './errors';

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
