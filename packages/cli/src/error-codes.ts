import { defineErrorCodes, errorFactory } from '@store/common';

/**
 * Every error `store serve`'s own server answers with, by stable snake_case code, with its HTTP
 * status; everything else is answered by the store (core's codes).
 */
const CLI_ERROR_CODES = defineErrorCodes({
  /** A request for a Host name a server bound to a loopback address does not answer. */
  host_not_allowed: 403,
});

/** The `StoreError` of one of {@link CLI_ERROR_CODES}. */
export const cliError = errorFactory(CLI_ERROR_CODES);
