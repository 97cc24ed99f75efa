import { isErrorStatus } from './http-status';
import { isStoreError, StoreError } from './store-error';

/** The code of a hook's error that names none, by status. */
const CODE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable',
  429: 'too_many_requests',
  500: 'internal',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

const SNAKE_CASE = /^[a-z][a-z0-9_]{0,63}$/;

/** The detail of a refusal whose error said nothing the client may read. */
export const HOOK_REFUSAL_DETAIL = 'Refused by a hook.';

/** The detail of a hook's 5xx: its message may hold internals, so it is only logged. */
export const HOOK_FAILURE_DETAIL = 'A hook failed; the server logged the error.';

/**
 * The one policy for errors thrown by application code the store calls (hooks, access
 * functions, sign-in hooks):
 * - a {@link StoreError} passes through;
 * - an error with an HTTP `status` from 400 to 499 answers that status, its message as `detail`,
 *   its `code` when snake_case, else one named after the status (`rejected` when none is);
 * - one with a `status` from 500 to 599 answers that status and code likewise, but with the
 *   fixed {@link HOOK_FAILURE_DETAIL}: a 5xx never carries internals, its message goes to the
 *   log only (through `cause`);
 * - anything else is a 403 `forbidden` with a fixed detail (its text stays private; the
 *   original is kept as `cause` for the log).
 */
export function toHookError(error: unknown): StoreError {
  if (isStoreError(error)) return error;
  const source = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const { status, code, message } = source;
  if (!isErrorStatus(status)) {
    return new StoreError(403, 'forbidden', HOOK_REFUSAL_DETAIL, { cause: error });
  }
  const named = typeof code === 'string' && SNAKE_CASE.test(code) ? code : undefined;
  const detail =
    status >= 500
      ? HOOK_FAILURE_DETAIL
      : typeof message === 'string' && message !== ''
        ? message
        : HOOK_REFUSAL_DETAIL;
  return new StoreError(status, named ?? CODE_OF_STATUS[status] ?? 'rejected', detail, { cause: error });
}
