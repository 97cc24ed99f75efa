/**
 * `@store/populate`: the relationship engine of `@store/core` (`$populate`, `$fill`,
 * nested child routes), batched, across id kinds. Imports nothing from core.
 */
export { attachRelations, type RelationRequest, type RelationScope, relationMatch } from './attach';
export type { PopulateCollection, PopulateDb, PopulateDocument, PopulateFindOptions } from './db';
export { POPULATE_ERROR_CODES, PopulateError, type PopulateErrorCode } from './error-codes';
export { hideFields, omitFields, requiredFields, stripFields, withJoinKeys } from './fields';
export { childrenFilter, type FilterOptions, parentsFilter } from './filters';
export { type IdValue, idKey, idVariants, idVariantsOf, isObjectId } from './ids';
export {
  type ReferenceFields,
  referenceFields,
  type SingularOverrides,
  singular,
} from './naming';
export {
  type PopulateOptions,
  type RelationConstraint,
  type RelationMatch,
  type ResolvedConstraint,
  type ResolvedPopulateOptions,
  resolvePopulateOptions,
} from './options';
export {
  allRelations,
  MAX_RELATION_DEPTH,
  type PlannedRelation,
  planRelations,
  type RelationKind,
} from './relations';
export type { SortOrder } from './sort';
