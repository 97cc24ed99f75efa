/**
 * `@store/core`: the framework-agnostic engine. Adapters call {@link createStoreHandler}'s
 * handler with a plain request and write back the plain response it returns; plugins (such as
 * `@store/auth-magic`) implement {@link StorePlugin}. Errors, option errors and the storage
 * interface come from `@store/common`.
 */

export { resolveDialects } from './config/dialects-option';
export { resolveStoreOptions } from './config/options';
export { createStoreHandler } from './handler/handler';
export { writeNodeResponse } from './handler/node-response';
export { clientAddress } from './http/client-key';
export { addressKey } from './http/ip-address';
export { isJsonContentType, parseJsonBody } from './http/parse-body';
export { receiveBody } from './http/read-body';
export { type Problem, renderError } from './http/render-error';
export type {
  BudgetFunction,
  BudgetsConfig,
  PopulateConfig,
  PopulationConstraint,
  RateLimitConfig,
  RateLimitPolicyConfig,
  ResourceConfig,
  StorageOption,
  StoreConfig,
  StoreDbOption,
  WireId,
} from './model/config';
export { ERROR_CODES, type ErrorCode, storeError } from './model/error-codes';
export { findResource } from './model/find-resource';
export type {
  AccessConfig,
  AccessFunction,
  AccessRule,
  HookContext,
  HookRequest,
  Operation,
  RequestSession,
  ResourceHooks,
  WriteHookContext,
} from './model/hooks';
export type {
  ParsedBody,
  StoreHandler,
  StoreLogger,
  StoreRequest,
  StoreRequestBody,
  StoreRequestHeaders,
  StoreResponse,
} from './model/http';
export type { ResolvedDialects, ResolvedStoreOptions, TrustedProxies } from './model/options';
export type {
  EndedSessions,
  PluginAnswer,
  PluginInstance,
  PluginRequest,
  PluginResourceOptions,
  PluginResourceRoute,
  PluginRuntime,
  PluginSetupInput,
  PluginStoreInput,
  PluginStoreSeams,
  ResourcePlugin,
  StorePlugin,
  StoreWidePlugin,
  StoreWideSetupInput,
} from './model/plugin';
export type { ResolvedResource } from './model/resource';
export type {
  DescribedAccess,
  DescribedPlugin,
  DescribedResource,
  DescribedRule,
  StoreDescription,
} from './model/store-description';
