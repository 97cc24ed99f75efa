/**
 * `@store/core`: the framework-agnostic engine. Adapters call {@link createStoreHandler}'s
 * handler with a plain request and write back the plain response it returns.
 */

export type { RequestContext, RequestSession } from './context';
export { ERROR_CODES, type ErrorCode, storeError } from './error-codes';
export { isStoreError, OptionError, StoreError, type StoreErrorOptions, titleForStatus } from '@store/common';
export { createStoreHandler } from './handler';
export { idFilter, newId } from '@store/common';
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
export type {
  PluginAnswer,
  PluginInstance,
  PluginRequest,
  PluginResourceOptions,
  PluginResourceRoute,
  PluginRuntime,
  PluginSetupInput,
  StorePlugin,
} from './plugins/types';
export { receiveBody } from './read-body';
export { findResource, type ResolvedResource } from './resources';
export type { RouteMatch } from './router';
export type { StorageOption } from './storage';
// The storage interface: every type storage/types.ts exports, as `./storage` does.
export type * from '@store/common';
export type {
  ParsedBody,
  StoreHandler,
  StoreLogger,
  StoreRequest,
  StoreRequestBody,
  StoreRequestHeaders,
  StoreResponse,
} from './types';
