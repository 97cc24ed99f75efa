import { type Document, idFilter } from '@store/common';
import { SOFT_DELETE_FIELD } from '../access/soft-delete';
import { hookContext } from '../hooks/hook-context';
import { runAfterHook, runHook } from '../hooks/hooks';
import { documentNotFound } from '../http/not-found';
import type { RequestContext, RouteResult } from '../model/context';
import { requestFilter } from '../read/filters';

/**
 * Deletes the first document `filter` matches (or, under `softDelete`, sets its `deletedAt`; the
 * grant's filter already leaves soft-deleted ones out); answers how many it deleted.
 */
async function removeOne(ctx: RequestContext, filter: Document): Promise<number> {
  if (!ctx.resource.softDelete) return (await ctx.collection.deleteOne(filter)).deletedCount;
  const result = await ctx.collection.updateOne(filter, { $set: { [SOFT_DELETE_FIELD]: new Date() } });
  return result.matchedCount;
}

/**
 * `DELETE /<res>/<id>`: 204 without a body; 404 when no document the caller may delete has the
 * id. With `beforeDelete` / `afterDelete`, the document is read first, handed to `beforeDelete`
 * (which may refuse), deleted only if it is still the one read, then handed to `afterDelete`.
 */
export async function deleteDocument(ctx: RequestContext): Promise<RouteResult> {
  const filter = requestFilter(ctx, idFilter(ctx.route.id as string));
  const { beforeDelete, afterDelete } = ctx.resource.hooks;
  if (beforeDelete === undefined && afterDelete === undefined) {
    if ((await removeOne(ctx, filter)) === 0) throw documentNotFound(ctx);
    return { status: 204 };
  }
  const document = await ctx.collection.findOne(filter);
  if (!document) throw documentNotFound(ctx);
  if (beforeDelete !== undefined) await runHook(() => beforeDelete(hookContext(ctx), document));
  if ((await removeOne(ctx, { $and: [filter, { _id: document._id }] })) === 0) throw documentNotFound(ctx);
  if (afterDelete !== undefined)
    await runAfterHook(ctx, 'afterDelete', (hookCtx) => afterDelete(hookCtx, document));
  return { status: 204 };
}
