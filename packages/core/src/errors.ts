import { ERROR_CODES, type ErrorCode } from './error-codes';

/** Extra parts of a {@link StoreError}. */
export interface StoreErrorOptions {
  /** Machine-readable details for hooks and tests; never rendered into logs or HTML. */
  data?: Record<string, unknown>;
  /**
   * Extension members of the problem JSON (RFC 9457 section 3.2), such as `errors` of an
   * `invalid_body`. Rendered at the top level; they can never replace `type`, `title`,
   * `status`, `detail` or `code`. Values must be JSON.
   */
  extensions?: Record<string, unknown>;
  /** Headers the error answer carries, such as `Allow` on a 405 (lower-case names). */
  headers?: Record<string, string>;
  /** The underlying error, kept for logs. */
  cause?: unknown;
}

/**
 * The one error class of `@store/*`: an HTTP status, a stable snake_case `code` and a
 * human-readable `detail` naming what is wrong. Rendered as `application/problem+json`.
 */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly data: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown> | undefined;

  constructor(status: number, code: string, detail: string, options: StoreErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.data = options.data;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions;
  }
}

/** A {@link StoreError} whose status comes from the {@link ERROR_CODES} table. */
export function storeError(code: ErrorCode, detail: string, options?: StoreErrorOptions): StoreError {
  return new StoreError(ERROR_CODES[code].status, code, detail, options);
}

/** Whether `value` is a {@link StoreError} (also across duplicated module copies). */
export function isStoreError(value: unknown): value is StoreError {
  return (
    value instanceof StoreError ||
    (value instanceof Error &&
      value.name === 'StoreError' &&
      typeof (value as Partial<StoreError>).status === 'number' &&
      typeof (value as Partial<StoreError>).code === 'string')
  );
}
