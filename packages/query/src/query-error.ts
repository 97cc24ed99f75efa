import { QUERY_ERROR_CODES, type QueryErrorCode } from './error-codes';

/**
 * A rejected query. `status` is always 400; `code` is stable; `detail` (also `message`)
 * names the offending parameter; `parameter` is its name as sent (`''` when the input as
 * a whole is rejected, e.g. too many parameters).
 */
export class QueryError extends Error {
  override readonly name = 'QueryError';
  readonly status: 400;
  readonly code: QueryErrorCode;
  readonly detail: string;
  readonly parameter: string;

  constructor(code: QueryErrorCode, parameter: string, detail: string) {
    super(detail);
    this.status = QUERY_ERROR_CODES[code].status;
    this.code = code;
    this.detail = detail;
    this.parameter = parameter;
  }
}

/**
 * True for a {@link QueryError}, including one thrown by another copy of this package
 * (ESM and CJS builds loaded side by side).
 */
export function isQueryError(error: unknown): error is QueryError {
  if (error instanceof QueryError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { name?: unknown; status?: unknown; code?: unknown };
  return (
    e.name === 'QueryError' &&
    e.status === 400 &&
    typeof e.code === 'string' &&
    Object.hasOwn(QUERY_ERROR_CODES, e.code)
  );
}

/** Throws a {@link QueryError}; `detail` should name `parameter`. */
export function fail(code: QueryErrorCode, parameter: string, detail: string): never {
  throw new QueryError(code, parameter, detail);
}
