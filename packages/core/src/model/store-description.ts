/**
 * The read-only description of a store that core offers every plugin (`store.describe()` at
 * setup): what its routes are and who may call them, without the functions, secrets or storage
 * behind them. `@store/openapi` turns it into an OpenAPI document; a plugin describes its own
 * routes for it through `PluginInstance.openapi`.
 */
import type { ErrorCodeTable } from '@store/common';
import type { Operation } from './hooks';

/** Who may run an operation: the access rule's kind (an access function is shown as `function`). */
export type DescribedRule =
  | { readonly kind: 'public' }
  | { readonly kind: 'authenticated' }
  | { readonly kind: 'none' }
  | { readonly kind: 'owner'; readonly field: string }
  | { readonly kind: 'function' };

/** The rule of each operation. */
export type DescribedAccess = Readonly<Record<Operation, DescribedRule>>;

/** A declared resource, as routed (`resources.user` under a sign-in plugin is `users`). */
export interface DescribedResource {
  /** The path segment: `/notes`. */
  readonly name: string;
  readonly access: DescribedAccess;
  /** `resources.<name>.schema` as configured; none without one. */
  readonly schema: Readonly<Record<string, unknown>> | undefined;
  /** Fields no answer shows and no query may name. */
  readonly hidden: readonly string[];
  /** Fields only a plugin writes. */
  readonly managed: readonly string[];
  /** Fields no client request writes (`resources.<name>.protected`). */
  readonly protected: readonly string[];
  readonly softDelete: boolean;
  /** Whether the store keeps `createdAt` and `updatedAt`. */
  readonly timestamps: boolean;
}

/** An active plugin: its routes, the codes they answer with, and how it describes them. */
export interface DescribedPlugin {
  /** The package: `@store/auth-magic`. */
  readonly name: string;
  readonly routePaths: readonly string[];
  readonly errorCodes: ErrorCodeTable;
  /** Its routes as OpenAPI 3.1 path items and components (`PluginInstance.openapi`). */
  readonly openapi:
    | {
        readonly paths: Readonly<Record<string, unknown>>;
        readonly components?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
      }
    | undefined;
}

export interface StoreDescription {
  /** `baseUrl` as configured: where the store is reached from outside. */
  readonly baseUrl: string | undefined;
  /** Whether only declared resources are routed. */
  readonly restrict: boolean;
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly maxBulk: number;
  /** The primary key's name on the wire (`wireId`): `_id`, or `id`. */
  readonly wireId: '_id' | 'id';
  /**
   * The foreign client dialects that are on (`dialects`); with any, `DELETE` of one document
   * answers 200 with it.
   */
  readonly dialects: { readonly jsonServer: boolean; readonly simpleRest: boolean };
  /** Whether a list `GET` answers change events too, and their keep-alive; `undefined` without realtime. */
  readonly realtime: { readonly keepAliveSeconds: number } | undefined;
  /** The declared resources a route reaches, in the order declared. */
  readonly resources: readonly DescribedResource[];
  /** The access of any other (undeclared) resource; `undefined` under `restrict`. */
  readonly otherResources: { readonly access: DescribedAccess } | undefined;
  /** Every code core answers with (the query's and population's included). */
  readonly errorCodes: ErrorCodeTable;
  readonly plugins: readonly DescribedPlugin[];
}
