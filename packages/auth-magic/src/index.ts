export { AUTH_ERROR_CODES, type AuthErrorCode } from './error-codes';
export { AuthError } from './errors';
export { resolveAuthOptions } from './resolve-options';
