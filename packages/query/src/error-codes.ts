import { defineErrorCodes } from '@store/common';

/**
 * Every error code `@store/query` can answer, with its HTTP status. All are client errors:
 * a query string never causes a 5xx.
 */
export const QUERY_ERROR_CODES = defineErrorCodes({
  /** A parameter is malformed: bad field name, bad value, bad JSON, out-of-range number. */
  invalid_query: 400,
  /** A parameter starts with `$` but is not one of the reserved parameters. */
  unknown_parameter: 400,
  /** A regular expression is longer than 256 characters or may backtrack catastrophically. */
  unsafe_regex: 400,
  /** A `$query` uses an operator outside the allow-list (`$where`, `$expr`, `$function`, ...). */
  forbidden_operator: 400,
  /** An `$after` cursor this store did not make for this `$sort` (corrupt, forged, from another sort). */
  invalid_cursor: 400,
  /**
   * A parameter of another client dialect (`_sort`, `_page`, `range`, `views_gte`, ...) sent to a
   * store whose `dialects` option does not read it, and no declared field has its name; the
   * detail names the option that turns the dialect on and the store's own form.
   */
  foreign_dialect_parameter: 400,
});

/** A stable, snake_case error code of `@store/query`. */
export type QueryErrorCode = keyof typeof QUERY_ERROR_CODES;
