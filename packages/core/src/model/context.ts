/** What one request carries through core, and what a route answers. Types only. */
import type { Document, StoreCollection, StoreDb } from '@store/common';
import type { CompiledQuery, LinkStyle } from '@store/query';
import type { Operation, RequestSession } from './hooks';
import type { StoreRequest } from './http';
import type { ResolvedStoreOptions } from './options';
import type { ResolvedResource, RouteMatch } from './resource';

/** What the access rule (and `beforeRead`) let one request do on one resource. */
export interface AccessGrant {
  /** ANDed outside every filter the request brings, in every query on the resource. */
  readonly filter: Document;
  /**
   * Fields the rule fixes, with their value: the owner field under `"owner"` (the user's `_id`),
   * the equality fields of a function's filter (`{ team: "red" }`). A create sets them; an
   * update may not change them.
   */
  readonly bound: Readonly<Record<string, unknown>>;
}

/** One request's budgets: `budgets` with its functions called once, for this request. */
export interface RequestBudgets {
  /** Most documents one database operation may examine (the embedded engine's `maxExamined`). */
  readonly examined: number;
  /** Time limit of each database operation, in ms (`maxTimeMS`). */
  readonly timeMS: number;
  /** Most bytes of a read's JSON answer. */
  readonly answerBytes: number;
}

/** A parent asked for as one object (`_expand=post`): the `$fill` field, answered as its first document under `as`. */
export interface ExpandedParent {
  readonly fill: string;
  readonly as: string;
}

/** What a request read through a foreign dialect (the `dialects` option) needs besides the compiled query. */
interface DialectReading {
  /** json-server's `q`: text one of a document's top-level string fields contains. */
  readonly search: string | undefined;
  /** json-server v1's `_per_page`: the list answer is `{ first, prev, next, last, pages, items, data }`. */
  readonly envelope: boolean;
  /** The dialect paging parameters the request sent (left out of `Link` URLs), and how those URLs page. */
  readonly paging: { readonly keys: readonly string[]; readonly style: LinkStyle };
  /** Parents asked for as one object each (`_expand`, v1's `_embed=<singular>`). */
  readonly expand: readonly ExpandedParent[];
}

/** The compiled query string as core reads it: with its dialect reading when a foreign dialect is on. */
export interface StoreQuery extends CompiledQuery {
  readonly dialect?: DialectReading;
}

/**
 * Everything one request carries through the handler. Access rules, hooks and sessions
 * plug in here: they read `request`, `resource`, `query` and `flags`, and use `db`.
 */
export interface RequestContext {
  readonly request: StoreRequest;
  /** The upper-case method. */
  readonly method: string;
  /** What the method does to `resource`: `read`, `create`, `update` or `delete`. */
  readonly operation: Operation;
  readonly options: ResolvedStoreOptions;
  readonly db: StoreDb;
  /** The route the path matched: the resource, and the id and child resource when present. */
  readonly route: RouteMatch;
  readonly resource: ResolvedResource;
  /** The collection of `resource`. */
  readonly collection: StoreCollection;
  /**
   * The compiled query string (every route compiles it, so flags and bad parameters count
   * everywhere), deep-frozen: one object serves every request with the same string
   * (`http/query-cache.ts`), and hooks receive it as it is.
   */
  readonly query: StoreQuery;
  /** `$$name=value` flags: never filters; for hooks and access rules. */
  readonly flags: CompiledQuery['flags'];
  /** The request's clock: one instant for every timestamp a request writes. */
  readonly now: Date;
  /** The signed-in user, or `null`: for access rules and hooks (a bad or expired token counts as none). */
  readonly user: Document | null;
  /** The session the request carries, or `null`. */
  readonly session: RequestSession | null;
  /**
   * What the access rule of `resource` grants this request (its filter is ANDed outside every
   * filter the request brings); open until the handler evaluated the rule.
   */
  readonly access: AccessGrant;
  /**
   * The request's budgets, set by the handler on every request it routes (with `db` and
   * `collection` then carrying them on every database call); absent on contexts no client
   * request made.
   */
  readonly budgets?: RequestBudgets;
}

/** What a route answers, before serialization. */
export interface RouteResult {
  status: number;
  /** The JSON body; absent for 204. */
  data?: unknown;
  /** Extra headers, lower-case names. */
  headers?: Record<string, string>;
  /** The revision of the one document the answer shows: its `ETag` is then strong. */
  revision?: string;
}

/** One route: a function of the request context. */
export type RouteHandler = (ctx: RequestContext) => Promise<RouteResult>;
