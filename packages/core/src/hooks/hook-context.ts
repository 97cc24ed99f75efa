import type { StoreCollection } from '@store/common';
import type { RequestContext } from '../model/context';
import { findResource } from '../model/find-resource';
import type { HookContext } from '../model/hooks';

/**
 * The narrow context application code receives for `ctx`: the request's facts, the resource and
 * operation, the frozen compiled query, the user and session, and the collections of routable
 * resources only.
 */
export function hookContext(ctx: RequestContext): HookContext {
  const { request, options } = ctx;
  const collection = (resourceName: string): StoreCollection => {
    const resource = findResource(options, resourceName);
    if (resource === undefined) {
      // A 500 with a status, so `toHookError` answers a fixed detail and only the log names it.
      const message = `A hook asked for "${resourceName}", which no route reaches.`;
      throw Object.assign(new Error(message), { status: 500 });
    }
    return ctx.db.collection(resource.collection);
  };
  return Object.freeze({
    request: Object.freeze({
      method: request.method,
      path: request.path,
      rawQuery: request.rawQuery,
      headers: request.headers,
      ip: request.ip,
    }),
    method: ctx.method,
    operation: ctx.operation,
    resource: Object.freeze({
      name: ctx.resource.name,
      collection: ctx.resource.collection,
      declared: ctx.resource.declared,
    }),
    query: ctx.query,
    flags: ctx.flags,
    user: ctx.user,
    session: ctx.session,
    now: ctx.now,
    db: Object.freeze({ collection }),
  });
}
