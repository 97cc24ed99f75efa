import { COMMON_ERROR_CODES, defineErrorCodes, errorFactory } from '@store/common';

/**
 * Every error code core answers with, and its HTTP status; the problem `title` is the status's
 * reason phrase (`@store/common`'s table). Each other package keeps its own table of this shape.
 */
export const ERROR_CODES = defineErrorCodes({
  ...COMMON_ERROR_CODES,
  /** The method is not one the route takes (with `Allow`). */
  method_not_allowed: 405,
  /** A body past `bodyLimit`. */
  payload_too_large: 413,
  /** A body that is not JSON. */
  unsupported_media_type: 415,
});

/** A code from {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The {@link StoreError} of a core code, its status from {@link ERROR_CODES}. */
export const storeError = errorFactory(ERROR_CODES);
