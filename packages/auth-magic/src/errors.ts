import { StoreError } from '@store/common';
import { AUTH_ERROR_CODES, type AuthErrorCode } from './error-codes';

/**
 * The error every flow throws: a `StoreError` with one of {@link AUTH_ERROR_CODES}, rendered
 * as problem JSON, plus `headers` (e.g. `Retry-After`) on the answer. `detail` may contain
 * user input: render it escaped, never into a log format.
 */
export class AuthError extends StoreError {
  override name = 'AuthError';
  declare readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, detail: string, extra: { headers?: Record<string, string> } = {}) {
    super(AUTH_ERROR_CODES[code], code, detail, { headers: extra.headers });
  }
}
