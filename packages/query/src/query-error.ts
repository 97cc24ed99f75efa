import { isStoreError, StoreError } from '@store/common';
import { QUERY_ERROR_CODES, type QueryErrorCode } from './error-codes';

/**
 * A rejected query: a `StoreError` whose `status` is always 400; `code` is stable; `detail`
 * (also `message`) names the offending parameter; `parameter` is its name as sent (`''` when
 * the input as a whole is rejected, e.g. too many parameters).
 */
export class QueryError extends StoreError {
  override name = 'QueryError';
  declare readonly status: 400;
  declare readonly code: QueryErrorCode;
  readonly parameter: string;

  constructor(code: QueryErrorCode, parameter: string, detail: string) {
    super(QUERY_ERROR_CODES[code], code, detail, { data: { parameter } });
    this.parameter = parameter;
  }
}

/**
 * True for a {@link QueryError}, including one thrown by another copy of this package
 * (ESM and CJS builds loaded side by side).
 */
export function isQueryError(error: unknown): error is QueryError {
  return (
    error instanceof QueryError ||
    (isStoreError(error) && error.name === 'QueryError' && Object.hasOwn(QUERY_ERROR_CODES, error.code))
  );
}

/** Throws a {@link QueryError}; `detail` should name `parameter`. */
export function fail(code: QueryErrorCode, parameter: string, detail: string): never {
  throw new QueryError(code, parameter, detail);
}
