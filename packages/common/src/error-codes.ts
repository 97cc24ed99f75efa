import { HTTP_STATUS_TITLES, isErrorStatus } from './http-status';
import { StoreError, type StoreErrorOptions } from './store-error';

/** A package's error codes: stable snake_case code -> the HTTP status it answers. */
export type ErrorCodeTable = Readonly<Record<string, number>>;

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/**
 * Declares a package's error codes in the one shape every package uses, checked once at load:
 * each code is snake_case and each status an error status with a title.
 */
export function defineErrorCodes<const T extends Record<string, number>>(codes: T): Readonly<T> {
  for (const [code, status] of Object.entries(codes)) {
    if (!SNAKE_CASE.test(code)) throw new TypeError(`error code "${code}" is not snake_case`);
    if (!isErrorStatus(status) || !Object.hasOwn(HTTP_STATUS_TITLES, status)) {
      throw new TypeError(`error code "${code}" has no error status with a title: ${status}`);
    }
  }
  return Object.freeze(codes);
}

/**
 * The error factory of a code table: `fail('not_found', 'No post 7.')` makes the
 * {@link StoreError} with the table's status for that code.
 */
export function errorFactory<T extends ErrorCodeTable>(codes: T) {
  return (code: keyof T & string, detail: string, options?: StoreErrorOptions): StoreError =>
    new StoreError(codes[code] as number, code, detail, options);
}
