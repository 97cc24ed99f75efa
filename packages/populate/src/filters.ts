import type { PopulateDocument } from './db';
import { idVariantsOf } from './ids';
import { referenceFields, type SingularOverrides } from './naming';

/** Options of the filter builders: only the singular overrides matter here. */
export interface FilterOptions {
  /** Per-resource singular forms (see `PopulateOptions.singular`). */
  readonly singular?: SingularOverrides;
}

/**
 * MongoDB filter selecting the children of the given parents: documents whose
 * `<singular>_id` equals, or whose `<singular>_ids` contains, any variant (string, number,
 * ObjectId) of any parent id. Used by `$populate` and by core's `GET /<res>/<id>/<children>`.
 */
export function childrenFilter(
  parentResource: string,
  parentIds: Iterable<unknown>,
  options?: FilterOptions,
): PopulateDocument {
  const { one, many } = referenceFields(parentResource, options?.singular);
  const variants = idVariantsOf(parentIds);
  return { $or: [{ [one]: { $in: variants } }, { [many]: { $in: variants } }] };
}

/** MongoDB filter selecting the parents whose `_id` is any variant of the given references. */
export function parentsFilter(references: Iterable<unknown>): PopulateDocument {
  return { _id: { $in: idVariantsOf(references) } };
}
