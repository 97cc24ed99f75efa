/**
 * The plugin interface (types only): how a package such as `@store/auth-magic` or
 * `@store/openapi` adds routes, collections and sessions to a store without core importing it.
 * A resource plugin claims one resource option (`resources.<name>.<option>`); a store-wide one
 * claims none and is set up once. Each is resolved with the store's options at `createStore`,
 * and started once storage is open.
 */
import type { ErrorCodeTable, StoreDb } from '@store/common';
import type { CompiledQuery } from '@store/query';
import type { AccessConfig, RequestSession, ResourceHooks } from './hooks';
import type { StoreLogger, StoreRequest } from './http';
import type { StoreDescription } from './store-description';

/**
 * Sessions that ended (sign-out, sign-out everywhere, a block, a revocation): those named by
 * id, and every session of the user with `userId`. Streams opened with one of them end at once.
 */
export interface EndedSessions {
  readonly sessionIds?: readonly string[];
  /** Every session of the user whose `_id` this is. */
  readonly userId?: unknown;
}

/** What core hands a plugin as it starts (`PluginInstance.start`): how it tells the store what happened. */
export interface PluginStoreSeams {
  /**
   * Sessions ended (sign-out, a block, a revocation): the event streams opened with them end at
   * once with a `dropped` event, code `unauthorized`. A no-op when `realtime` is off.
   */
  sessionsEnded(ended: EndedSessions): void;
}

/** What a resource plugin learns, at `createStore`, about the option it claims and the store. */
export interface PluginSetupInput {
  /** The option's full name, for errors: `resources.user.auth`. */
  readonly option: string;
  /** The name of the resource carrying it (`user`). */
  readonly resourceName: string;
  /** The collection of that resource (its own `collection`, or the default the plugin gave). */
  readonly collection: string;
  /** The option's value as configured (unchecked: the plugin checks it, throwing `OptionError`). */
  readonly value: unknown;
  readonly store: PluginStoreInput;
}

/** What a store-wide plugin learns at `createStore`. */
export interface StoreWideSetupInput {
  /** Where it stands, for errors: `plugins[1]`. */
  readonly option: string;
  readonly store: PluginStoreInput;
}

/** The store-wide options every plugin may need, and the store's description. */
export interface PluginStoreInput {
  /** `secret` as configured (unchecked). */
  readonly secret: unknown;
  readonly baseUrl: string | undefined;
  readonly bodyLimit: number;
  readonly logger: StoreLogger;
  /**
   * The client's address of a request: `request.ip`, or, when that is one of `trustedProxies`,
   * the address the proxies forwarded for (`''` when the host reports none). Limits per address
   * key it with `addressKey`.
   */
  clientAddress(request: StoreRequest): string;
  /**
   * The store's routes and who may call them, read-only: the same object on every call. It is
   * complete once `createStore` has returned (every plugin set up), so call it from a route, not
   * from `setup`.
   */
  describe(): StoreDescription;
}

/** How the resource carrying the option is routed once the plugin is on. */
export interface PluginResourceRoute {
  /** Route it under this name instead (`user` -> `/users`); its old name becomes unroutable. */
  readonly routeAs?: string;
  /** Its access rule when the application declares none, with the field `"owner"` compares. */
  readonly defaultAccess?: { readonly rule: AccessConfig; readonly ownerField: string };
  /** Fields only the plugin writes: a write through the REST routes that changes one is a 403. */
  readonly managedFields?: readonly string[];
  /**
   * Hooks the plugin runs after writes through the REST routes (a block, a deletion), each after
   * the application's own hook of the same name. What it throws is logged, like the application's.
   */
  readonly hooks?: Pick<ResourceHooks, 'afterWrite' | 'afterDelete'>;
}

/** One request to a plugin route, with what core already read from it. */
export interface PluginRequest {
  readonly request: StoreRequest;
  /** The upper-case method. */
  readonly method: string;
  /** The `$$name=value` flags of the query string (compiled as on every route: a bad one is a 400). */
  readonly flags: CompiledQuery['flags'];
}

/** What a plugin route answers, before core serializes it. */
export interface PluginAnswer {
  status: number;
  /** A JSON body. */
  data?: unknown;
  /** A server-rendered HTML page, sent as `text/html`. */
  html?: string;
  /** Any other text body (a script, a style sheet), sent as it is: set its `content-type` in `headers`. */
  body?: string;
  /** Answer a `GET` with an `ETag` of the body, and `304` to a matching `If-None-Match`. */
  etag?: boolean;
  /** Extra headers, lower-case names. */
  headers?: Record<string, string>;
}

/** A plugin at request time, once storage is open. */
export interface PluginRuntime {
  /**
   * Answers a request whose path is at or under one of the plugin's `routePaths`, or `null` when no route
   * of the plugin matches (the path is then not the store's). Errors it throws are rendered by
   * core as problem JSON.
   */
  answer(request: PluginRequest): Promise<PluginAnswer | null>;
  /** The session a resource request carries, or `null` (for `ctx.user` and the access rules). */
  findSession?(request: StoreRequest): Promise<RequestSession | null>;
  /**
   * For each session it found (`findSession`), whether it is still live (it exists, has not
   * expired, its user exists and is not blocked), in the order given: asked at each keep-alive of
   * the event streams, so a session ended elsewhere (another process) ends its streams too.
   * Without it, only a session's `expiresAt` ends its streams.
   */
  checkSessions?(sessions: readonly RequestSession[]): Promise<readonly boolean[]>;
}

/** A plugin, resolved for one store. */
export interface PluginInstance {
  /** Collections the plugin keeps to itself: never routable, and no other resource may use one. */
  readonly collections: readonly string[];
  readonly resource?: PluginResourceRoute;
  /**
   * The paths its routes live at or under (`['/auth']`, `['/openapi.json', '/docs']`); checked
   * before resource routes, so a resource of the same name is not reached.
   */
  readonly routePaths: readonly string[];
  /** Headers every answer under `routePaths` carries, errors included (`cache-control: no-store`). */
  readonly answerHeaders?: Readonly<Record<string, string>>;
  /**
   * Its routes in the store's description (`StoreDescription.plugins`, which `@store/openapi`
   * serves): OpenAPI 3.1 path items by full path (`/auth/session`), and the components they use by section
   * (`{ schemas: {...}, securitySchemes: {...} }`). They may reference the store's own
   * `#/components/schemas/Problem` and `#/components/responses/Problem`; a session scheme a
   * plugin adds is offered on every resource operation that needs a session. Core's components
   * win over a plugin's of the same name.
   */
  readonly openapi?: {
    readonly paths: Readonly<Record<string, unknown>>;
    readonly components?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  };
  /**
   * Ensures its indexes on the store's database and returns its request-time side; `seams` tell
   * the store what the plugin did (sessions it ended).
   */
  start(db: StoreDb, seams: PluginStoreSeams): Promise<PluginRuntime>;
}

/**
 * A plugin that claims a resource option:
 * `createStore({ plugins: [magicAuth], resources: { user: { auth: {...} } } })`.
 * See docs/architecture.md ("where do I add a sign-in strategy").
 */
export interface ResourcePlugin {
  /** The package, for messages: `@store/auth-magic`. */
  readonly name: string;
  /** The resource option it claims: `auth` claims `resources.<name>.auth`. */
  readonly resourceOption: string;
  /** The collection of the resource carrying the option when it declares none (`user` -> `users`). */
  defaultCollection?(resourceName: string): string;
  /** The codes of the errors its routes answer with (for documentation). */
  readonly errorCodes: ErrorCodeTable;
  /**
   * Resolves the claimed option once per resource that sets it, at `createStore` (throwing
   * `OptionError` naming a bad value); `null` leaves the plugin off.
   */
  setup(input: PluginSetupInput): PluginInstance | null;
}

/**
 * A plugin that claims no option and is set up once, after the resource plugins, with the options
 * it was created with: `createStore({ plugins: [openapi({ title: 'Notes' })] })`.
 */
export interface StoreWidePlugin {
  readonly name: string;
  readonly resourceOption?: undefined;
  readonly errorCodes: ErrorCodeTable;
  setup(input: StoreWideSetupInput): PluginInstance;
}

/** A store plugin, as `plugins` lists it. */
export type StorePlugin = ResourcePlugin | StoreWidePlugin;

/**
 * Options plugins add to `resources.<name>`: a plugin package augments this interface
 * (`declare module '@store/core' { interface PluginResourceOptions { auth?: ... } }`), so the
 * claimed option is typed where the plugin is installed.
 */
// biome-ignore lint/suspicious/noEmptyInterface: augmented by plugin packages
export interface PluginResourceOptions {}

/** A plugin route path without its leading and trailing slashes (`/auth/` is `auth`). */
export const bareRoutePath = (path: string): string => path.replace(/^\/+|\/+$/g, '');

/** The first segment of a plugin route path (`/auth/magic-code` is `auth`): the resource name it takes. */
export const firstRouteSegment = (path: string): string => bareRoutePath(path).split('/')[0] ?? '';
