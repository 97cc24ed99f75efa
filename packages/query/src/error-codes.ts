/**
 * Every error code `@store/query` can answer, with its HTTP status and what it means.
 * All are client errors: a query string never causes a 5xx.
 */
export const QUERY_ERROR_CODES = {
  invalid_query: {
    status: 400,
    description: 'A parameter is malformed: bad field name, bad value, bad JSON, out-of-range number.',
  },
  unknown_parameter: {
    status: 400,
    description: 'A parameter starts with `$` but is not one of the reserved parameters.',
  },
  unsafe_regex: {
    status: 400,
    description: 'A regular expression is longer than 256 characters or may backtrack catastrophically.',
  },
  forbidden_operator: {
    status: 400,
    description: 'A `$query` uses an operator outside the allow-list (`$where`, `$expr`, `$function`, ...).',
  },
} as const satisfies Record<string, { status: 400; description: string }>;

/** A stable, snake_case error code of `@store/query`. */
export type QueryErrorCode = keyof typeof QUERY_ERROR_CODES;
