import type { StoreDb } from '@store/common';
import type { CompiledQuery } from '@store/query';
import type { RequestContext } from '../model/context';
import type { RequestSession } from '../model/hooks';
import type { StoreRequest } from '../model/http';
import type { ResolvedStoreOptions } from '../model/options';
import type { ResolvedResource, RouteMatch } from '../model/resource';
import { OPEN_GRANT } from './grant';
import { OPERATION_OF_METHOD } from './rules';

/**
 * Builds the context of a matched request, with its compiled query string (`QueryCache`) and the
 * session the handler looked up.
 */
export function createContext(
  request: StoreRequest,
  options: ResolvedStoreOptions,
  db: StoreDb,
  route: RouteMatch,
  query: CompiledQuery,
  session: RequestSession | null = null,
): RequestContext {
  const { method } = request;
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
    // Set by the handler (read/request-budgets.ts); present from the start so that the copy with
    // the budgets keeps this object's shape (a new member makes V8 copy it many times slower).
    budgets: undefined,
  };
}

/** `ctx` turned to another resource (a nested route's children, a relation): same request, no grant yet. */
export function contextFor(ctx: RequestContext, resource: ResolvedResource): RequestContext {
  return { ...ctx, resource, collection: ctx.db.collection(resource.collection), access: OPEN_GRANT };
}
