import { idFilter } from '@store/common';
import { hookContext } from '../hooks/hook-context';
import { runAfterHook, runHook } from '../hooks/hooks';
import { documentNotFound } from '../http/not-found';
import type { RequestContext, RouteResult } from '../model/context';
import { requestFilter } from '../read/filters';

/**
 * `DELETE /<res>/<id>`: 204 without a body; 404 when no document the caller may delete has the
 * id. With `beforeDelete` / `afterDelete`, the document is read first, handed to `beforeDelete`
 * (which may refuse), deleted only if it is still the one read, then handed to `afterDelete`.
 */
export async function deleteDocument(ctx: RequestContext): Promise<RouteResult> {
  const filter = requestFilter(ctx, idFilter(ctx.route.id as string));
  const { beforeDelete, afterDelete } = ctx.resource.hooks;
  if (beforeDelete === undefined && afterDelete === undefined) {
    const { deletedCount } = await ctx.collection.deleteOne(filter);
    if (deletedCount === 0) throw documentNotFound(ctx);
    return { status: 204 };
  }
  const document = await ctx.collection.findOne(filter);
  if (!document) throw documentNotFound(ctx);
  if (beforeDelete !== undefined) await runHook(() => beforeDelete(hookContext(ctx), document));
  const { deletedCount } = await ctx.collection.deleteOne({ $and: [filter, { _id: document._id }] });
  if (deletedCount === 0) throw documentNotFound(ctx);
  if (afterDelete !== undefined)
    await runAfterHook(ctx, 'afterDelete', (hookCtx) => afterDelete(hookCtx, document));
  return { status: 204 };
}
