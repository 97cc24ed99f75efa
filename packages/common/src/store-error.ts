import { isErrorStatus } from './http-status';

/** Extra parts of a {@link StoreError}. */
export interface StoreErrorOptions {
  /** Machine-readable details for hooks and tests; never rendered into logs or HTML. */
  data?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Extension members of the problem JSON (RFC 9457 section 3.2), such as `errors` of an
   * `invalid_body`. Rendered at the top level; they can never replace `type`, `title`,
   * `status`, `detail` or `code`. Values must be JSON.
   */
  extensions?: Record<string, unknown> | undefined;
  /** Headers the error answer carries, such as `Allow` on a 405 or `Retry-After` on a 429. */
  headers?: Record<string, string> | undefined;
  /** The underlying error, kept for logs. */
  cause?: unknown;
}

/** Marks every StoreError, also one made by another copy of this package (ESM and CJS side by side). */
const BRAND: unique symbol = Symbol.for('@store/common.StoreError') as never;

/**
 * The one error class of `@store/*`: an HTTP `status`, a stable snake_case `code` and a
 * human-readable `detail` naming what is wrong. Every package's errors extend it; the store
 * renders it as `application/problem+json` with the title of its status.
 */
export class StoreError extends Error {
  override name = 'StoreError';
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly data: Readonly<Record<string, unknown>> | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly extensions: Readonly<Record<string, unknown>> | undefined;
  readonly [BRAND] = true;

  constructor(status: number, code: string, detail: string, options: StoreErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = isErrorStatus(status) ? status : 500;
    this.code = code;
    this.detail = detail;
    this.data = options.data;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions;
  }
}

/** Whether `value` is a {@link StoreError} or a subclass, also from another copy of this package. */
export function isStoreError(value: unknown): value is StoreError {
  return (
    value instanceof StoreError ||
    (value instanceof Error && (value as unknown as Record<symbol, unknown>)[BRAND] === true)
  );
}
