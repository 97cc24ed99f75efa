import { AUTH_ERROR_CODES, type AuthErrorCode } from './error-codes';

/**
 * The error every flow throws. The store renders it as problem JSON:
 * `{ type, title, status, detail, code }`, plus `headers` (e.g. `Retry-After`) on the answer.
 * `detail` may contain user input: render it escaped, never into a log format.
 */
export class AuthError extends Error {
  /** HTTP status of the answer. */
  readonly status: number;
  /** Stable snake_case code. */
  readonly code: string;
  /** Human-readable explanation, naming the parameter at fault. */
  readonly detail: string;
  /** Extra response headers, such as `Retry-After`. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** For `invalid_options`: the option at fault (`magicLink.exp`), so a host can rename it. */
  readonly option: string | undefined;

  constructor(
    code: AuthErrorCode,
    detail: string,
    extra: { headers?: Record<string, string>; status?: number; code?: string; option?: string } = {},
  ) {
    super(detail);
    this.name = 'AuthError';
    this.status = extra.status ?? AUTH_ERROR_CODES[code];
    this.code = extra.code ?? code;
    this.detail = detail;
    this.headers = extra.headers;
    this.option = extra.option;
  }
}

const SNAKE_CASE = /^[a-z][a-z0-9_]{0,63}$/;

/** The HTTP status a hook error asked for, when it is an integer in 400-599. */
function hookStatus(status: unknown): number | undefined {
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599
    ? status
    : undefined;
}

/**
 * Turns whatever a hook threw into an `AuthError`: an `AuthError` passes through; an error with
 * an HTTP `status` (400-599) keeps it, its message and its snake_case `code` (default `forbidden`
 * for 403, `refused` otherwise). Anything else (a bug in the hook) is a 403 with a fixed detail,
 * so internals never reach the client.
 */
export function toHookError(error: unknown): AuthError {
  if (error instanceof AuthError) return error;
  const source = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const status = hookStatus(source.status);
  if (status === undefined) return new AuthError('forbidden', 'Refused by a hook');
  const code =
    typeof source.code === 'string' && SNAKE_CASE.test(source.code)
      ? source.code
      : status === 403
        ? 'forbidden'
        : 'refused';
  const detail =
    typeof source.message === 'string' && source.message !== '' ? source.message : 'Refused by a hook';
  return new AuthError('forbidden', detail, { status, code });
}
