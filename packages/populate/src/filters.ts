import type { PopulateDocument } from './db';
import { idVariantsOf } from './ids';
import { allReferenceFields, referenceFields, type SingularOverrides } from './naming';

/** Options of the filter builders: the singular overrides, and whether `<singular>Id` counts too. */
export interface FilterOptions {
  /** Per-resource singular forms (see `PopulateOptions.singular`). */
  readonly singular?: SingularOverrides;
  /** Also `<singular>Id` / `<singular>Ids` (see `PopulateOptions.camelCase`). */
  readonly camelCase?: boolean;
}

/**
 * MongoDB filter selecting the children of the given parents: documents whose
 * `<singular>_id` equals, or whose `<singular>_ids` contains, any variant (string, number,
 * ObjectId) of any parent id (with `camelCase`, `<singular>Id` and `<singular>Ids` too). Used by
 * `$populate` and by core's `GET /<res>/<id>/<children>`.
 */
export function childrenFilter(
  parentResource: string,
  parentIds: Iterable<unknown>,
  options?: FilterOptions,
): PopulateDocument {
  const fields = referenceFields(parentResource, options?.singular, options?.camelCase);
  const variants = idVariantsOf(parentIds);
  return { $or: allReferenceFields(fields).map((field) => ({ [field]: { $in: variants } })) };
}

/** MongoDB filter selecting the parents whose `_id` is any variant of the given references. */
export function parentsFilter(references: Iterable<unknown>): PopulateDocument {
  return { _id: { $in: idVariantsOf(references) } };
}
