/**
 * `@store/core`: the framework-agnostic engine. Adapters call {@link createStoreHandler}'s
 * handler with a plain request and write back the plain response it returns.
 */

export type { StoreAuth, UserAuthConfig } from './auth/options';
export type { RequestContext, RequestSession } from './context';
export { ERROR_CODES, type ErrorCode, titleForStatus } from './error-codes';
export { isStoreError, StoreError, type StoreErrorOptions, storeError } from './errors';
export { createStoreHandler } from './handler';
export { idFilter, newId } from './ids';
export {
  type ResolvedStoreOptions,
  type ResourceConfig,
  resolveStoreOptions,
  type StoreConfig,
  type StoreDbOption,
} from './options';
export { isJsonContentType, parseJsonBody } from './parse-body';
export { type RelationRequest, resolveRelations } from './relations';
export { type Problem, renderError } from './render-error';
export { INTERNAL_COLLECTIONS, type ResolvedResource } from './resources';
export type { RouteMatch } from './router';
export { createEmbeddedDb, type EmbeddedDb, type StorageOption } from './storage';
// The storage interface: every type storage/types.ts exports, as `./storage` does.
export type * from './storage/types';
export type {
  ParsedBody,
  StoreHandler,
  StoreLogger,
  StoreRequest,
  StoreRequestBody,
  StoreRequestHeaders,
  StoreResponse,
} from './types';
