/**
 * `@store/common`: the bottom layer every `@store/*` package builds on. The one error class
 * and its code tables, option errors and checks, the storage interface, id helpers, functions
 * compiled per object shape.
 */

export type {
  Collation,
  CountedPage,
  Document,
  FindCursor,
  FindOptions,
  IndexDescription,
  IndexOptions,
  IndexSpec,
  ModifyOptions,
  StoreCollection,
  StoreDb,
  TimeLimit,
} from './db-types';
export {
  type CollectionIndex,
  ensureIndex,
  ensureIndexes,
  type IndexLogger,
  type IndexOutcome,
  type OwnedIndex,
} from './ensure-index';
export { defineErrorCodes, type ErrorCodeTable, errorFactory } from './error-codes';
export { HOOK_FAILURE_DETAIL, HOOK_REFUSAL_DETAIL, toHookError } from './hook-error';
export { HTTP_STATUS_TITLES, titleForStatus } from './http-status';
export { aliasFilter, idCandidates, idFilter, idToString, newId, sameId } from './ids';
export {
  checkBaseUrl,
  checkBoolean,
  checkCollectionName,
  checkFieldPath,
  checkInteger,
  checkKeys,
  isPlainObject,
} from './option-checks';
export { invalidOption, isOptionError, OptionError } from './option-error';
export { setOwn } from './own-property';
export { literalKey, MAX_LITERAL_KEYS, ShapeLiterals } from './shape-literals';
export { isStoreError, StoreError, type StoreErrorOptions } from './store-error';
