/**
 * What application code receives: the narrow {@link HookContext} of hooks, access functions and
 * population `match` functions, and the shapes of the hooks and access rules themselves.
 * Types only.
 */
import type { Document, StoreCollection } from '@store/common';
import type { CompiledQuery } from '@store/query';
import type { StoreRequest } from './http';

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** What a request does to a resource: the method decides (`GET`/`HEAD` read, `PUT`/`PATCH` update). */
export type Operation = 'read' | 'create' | 'update' | 'delete';

/** The live session a request carries (`Authorization: Bearer` or a cookie), as a plugin finds it. */
export interface RequestSession {
  /**
   * What names this session among the user's (never its secret token): the streams opened with it
   * end when a plugin reports it ended. A plugin that gives none ends streams by user only.
   */
  readonly id?: string;
  /** The signed-in user's document. */
  readonly user: Document;
  readonly expiresAt: Date;
}

/** The facts of a request a hook may read: never its body stream, never the store's options. */
export type HookRequest = Readonly<Pick<StoreRequest, 'method' | 'path' | 'rawQuery' | 'headers' | 'ip'>>;

/**
 * What hooks, access functions and population `match` functions receive:
 * the request's facts, the resource and operation, the read-only compiled query and its flags,
 * the user and session, and the collections of routable resources. Never the store's internal
 * options, secrets, or a collection no route reaches (sessions, sign-in secrets).
 */
export interface HookContext {
  readonly request: HookRequest;
  /** The upper-case method. */
  readonly method: string;
  /** What the request does to `resource`: `read`, `create`, `update` or `delete`. */
  readonly operation: Operation;
  /** The resource the hook or rule is about (in relations, the related resource). */
  readonly resource: { readonly name: string; readonly collection: string; readonly declared: boolean };
  /** The compiled query string, frozen: `filter`, `sort`, `limit`, `populate`, ... */
  readonly query: Readonly<CompiledQuery>;
  /** `$$name=value` flags: never filters; for hooks and access rules. */
  readonly flags: CompiledQuery['flags'];
  /** The signed-in user, or `null` (a bad or expired token counts as none). */
  readonly user: Document | null;
  /** The session the request carries, or `null`. */
  readonly session: RequestSession | null;
  /** The request's clock: one instant for every timestamp a request writes. */
  readonly now: Date;
  /**
   * The collections of routable resources, by resource name (`db.collection('posts')`); a name
   * no route reaches (an internal collection, an undeclared one under `restrict`) throws.
   */
  readonly db: { collection(resourceName: string): StoreCollection };
}

/** The context `beforeWrite` receives: the request's, plus the body it may change. */
export interface WriteHookContext extends HookContext {
  /**
   * The document to store (`POST`, `PUT`) or the fields to set (`PATCH`, dotted keys allowed),
   * already checked against the body rules. Change it in place or return a new one.
   */
  body: Document;
  /** The stored document a `PUT` / `PATCH` changes (`null` on create, and on a `PATCH` without `schema`). */
  readonly previous: Document | null;
}

/**
 * Decides an operation from the request context: `true` allows it, `false` refuses it (401
 * without a session, 403 with one), and a filter allows it on the documents matching it (ANDed
 * into every query the request makes on the resource). On `create` only a boolean is meaningful.
 */
export type AccessFunction = (ctx: HookContext) => boolean | Document | Promise<boolean | Document>;

/**
 * - `"public"`: anyone;
 * - `"authenticated"`: any signed-in user (401 without a session);
 * - `"owner"`: documents whose `ownerField` is the user's `_id` (set from the session on create);
 * - `"none"`: nobody (403);
 * - a function: see {@link AccessFunction}.
 */
export type AccessRule = 'public' | 'authenticated' | 'owner' | 'none' | AccessFunction;

/** One rule for every operation, or one per operation (an operation left out is `"none"`). */
export type AccessConfig = AccessRule | Partial<Record<Operation, AccessRule>>;

/** Per-resource hooks, under `resources.<name>.hooks`. Throwing an error with `status` ends the request with it. */
export interface ResourceHooks {
  /** Before every read of the resource (routes, nested routes, `$populate`, `$fill`): may return a filter ANDed in. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing (a `void` function) keeps the default
  beforeRead?: (ctx: HookContext) => Awaitable<Document | undefined | void>;
  /** Before `POST`, `PUT` and `PATCH`: may change `ctx.body` or return the body to use; throws to reject. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing (a `void` function) keeps the default
  beforeWrite?: (ctx: WriteHookContext) => Awaitable<Document | undefined | void>;
  /** On every document of the resource an answer carries (populated ones too): may return reshaped documents. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing (a `void` function) keeps the default
  afterRead?: (ctx: HookContext, documents: Document[]) => Awaitable<Document[] | undefined | void>;
  /**
   * After a `POST`, `PUT` or `PATCH` is stored: `before` is the document as read just before the
   * write (`null` on create), `after` as stored. What it throws is logged; the write still answers
   * its success (it is committed).
   */
  afterWrite?: (ctx: HookContext, change: { before: Document | null; after: Document }) => Awaitable<unknown>;
  /** Before a `DELETE`, with the document it would delete; throws to refuse (its `status`, default 403). */
  beforeDelete?: (ctx: HookContext, document: Document) => Awaitable<unknown>;
  /** After a `DELETE`, with the deleted document. What it throws is logged; the answer stays 204. */
  afterDelete?: (ctx: HookContext, document: Document) => Awaitable<unknown>;
}
