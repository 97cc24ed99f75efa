/**
 * Every error `@store/populate` raises, as a table: stable snake_case code -> HTTP status.
 * Core renders these as problem JSON; the `code` never changes once published.
 */
export const POPULATE_ERROR_CODES = {
  /** A `$populate` / `$fill` value is not a valid resource name. */
  invalid_relation: 400,
  /** More `$populate` + `$fill` names in one request than `maxRelations` allows. */
  too_many_relations: 400,
  /** The same name is asked for both as `$populate` and `$fill`: both would write one field. */
  relation_conflict: 400,
  /** A server-side constraint is malformed (e.g. a `match` function returned no object). */
  invalid_constraint: 500,
  /** `resolvePopulateOptions()` rejected an option; thrown at start-up, never per request. */
  invalid_option: 500,
} as const satisfies Record<string, number>;

/** One of the stable error codes of `@store/populate`. */
export type PopulateErrorCode = keyof typeof POPULATE_ERROR_CODES;

/**
 * The typed error of `@store/populate`. Shaped like core's `StoreError` (`status`, `code`,
 * optional `data`) without importing core, so core can render it as is.
 */
export class PopulateError extends Error {
  /** HTTP status the error maps to. */
  readonly status: number;
  /** Stable snake_case code. */
  readonly code: PopulateErrorCode;
  /** Structured detail (user input goes here, never into `message` formats). */
  readonly data: Readonly<Record<string, unknown>> | undefined;

  constructor(code: PopulateErrorCode, message: string, data?: Readonly<Record<string, unknown>>) {
    super(message);
    this.name = 'PopulateError';
    this.code = code;
    this.status = POPULATE_ERROR_CODES[code];
    this.data = data;
  }
}
