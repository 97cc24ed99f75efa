import { defineErrorCodes, StoreError } from '@store/common';

/**
 * Every error `@store/populate` raises, as a table: stable snake_case code -> HTTP status.
 * Core renders these as problem JSON; the `code` never changes once published. A bad option
 * is `@store/common`'s `OptionError` (`invalid_config`), like every package's.
 */
export const POPULATE_ERROR_CODES = defineErrorCodes({
  /** A `$populate` / `$fill` value is not a valid resource name. */
  invalid_relation: 400,
  /** More `$populate` + `$fill` names in one request than `maxRelations` allows. */
  too_many_relations: 400,
  /** The same name is asked for both as `$populate` and `$fill`: both would write one field. */
  relation_conflict: 400,
  /** The related documents of one answer would be more than `maxDocuments`. */
  too_many_documents: 400,
  /** A server-side constraint is malformed (e.g. a `match` function returned no object). */
  invalid_constraint: 500,
});

/** One of the stable error codes of `@store/populate`. */
export type PopulateErrorCode = keyof typeof POPULATE_ERROR_CODES;

/** The typed error of `@store/populate`: a `StoreError` with one of {@link POPULATE_ERROR_CODES}. */
export class PopulateError extends StoreError {
  override name = 'PopulateError';
  declare readonly code: PopulateErrorCode;

  /** `data` holds structured detail (user input goes there, never into `detail` formats). */
  constructor(code: PopulateErrorCode, detail: string, data?: Readonly<Record<string, unknown>>) {
    super(POPULATE_ERROR_CODES[code], code, detail, { data });
  }
}
