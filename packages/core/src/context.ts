import { type CompiledQuery, compileQuery } from '@store/query';
import { type AccessGrant, OPEN_GRANT } from './access/grant';
import { OPERATION_OF_METHOD, type Operation } from './access/rules';
import type { ResolvedStoreOptions } from './options';
import type { ResolvedResource } from './resources';
import type { RequestSession } from './plugins/types';
import type { RouteMatch } from './router';
import type { Document, StoreCollection, StoreDb } from '@store/common';
import type { StoreRequest } from './types';

export type { RequestSession } from './plugins/types';

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
  /** The compiled query string (every route compiles it, so flags and bad parameters count everywhere). */
  readonly query: CompiledQuery;
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
}

/**
 * Builds the context of a matched request (with the session the handler looked up); throws the
 * query's 400 for a bad query string.
 */
export function createContext(
  request: StoreRequest,
  options: ResolvedStoreOptions,
  db: StoreDb,
  route: RouteMatch,
  session: RequestSession | null = null,
): RequestContext {
  const rawQuery = request.rawQuery.startsWith('?') ? request.rawQuery.slice(1) : request.rawQuery;
  const query = compileQuery(rawQuery, { defaultLimit: options.defaultLimit, maxLimit: options.maxLimit });
  const method = request.method.toUpperCase();
  return {
    request,
    method,
    operation: OPERATION_OF_METHOD[method] ?? 'read',
    options,
    db,
    route,
    resource: route.resource,
    collection: db.collection(route.resource.collection),
    query,
    flags: query.flags,
    now: new Date(),
    user: session?.user ?? null,
    session,
    access: OPEN_GRANT,
  };
}

/** `ctx` turned to another resource (a nested route's children, a relation): same request, no grant yet. */
export function contextFor(ctx: RequestContext, resource: ResolvedResource): RequestContext {
  return { ...ctx, resource, collection: ctx.db.collection(resource.collection), access: OPEN_GRANT };
}
