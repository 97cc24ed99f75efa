import { type Document, idFilter } from '@store/common';
import { requestFilter } from '../access/filters';
import { SOFT_DELETE_FIELD } from '../access/soft-delete';
import { hookContext } from '../hooks/hook-context';
import { runAfterHook, runHook } from '../hooks/hooks';
import type { RequestContext, RouteResult } from '../model/context';
import { newRevision, REVISION_FIELD, withoutRevision } from '../model/revision';
import { conditionalFilter, notWritten } from './conditional';
import { presentWritten } from './present-written';

/**
 * Deletes the first document `filter` matches, or every one (`many`); under `softDelete`, sets
 * their `deletedAt` (and a new revision) instead: the grant's filter already leaves soft-deleted
 * ones out. Answers how many it deleted.
 */
export async function removeMatching(ctx: RequestContext, filter: Document, many = false): Promise<number> {
  const { collection } = ctx;
  if (!ctx.resource.softDelete) {
    return (await (many ? collection.deleteMany(filter) : collection.deleteOne(filter))).deletedCount;
  }
  const update = { $set: { [SOFT_DELETE_FIELD]: ctx.now, [REVISION_FIELD]: newRevision() } };
  return (await (many ? collection.updateMany(filter, update) : collection.updateOne(filter, update)))
    .matchedCount;
}

/**
 * `DELETE /<res>/<id>`: 204 without a body, or, when a foreign client dialect is on
 * (`dialects`), 200 with the deleted document as a read by the caller shows it; 404 when no
 * document the caller may delete has the id. With `beforeDelete` / `afterDelete` (or to answer
 * the document), the document is read first, handed to `beforeDelete` (which may refuse),
 * deleted only if it is still the one read, then handed to `afterDelete`.
 */
export async function deleteDocument(ctx: RequestContext): Promise<RouteResult> {
  const filter = await conditionalFilter(ctx, requestFilter(ctx, idFilter(ctx.route.id as string)));
  const { beforeDelete, afterDelete } = ctx.resource.hooks;
  const answersDocument = ctx.options.dialects.foreign;
  if (beforeDelete === undefined && afterDelete === undefined && !answersDocument) {
    if ((await removeMatching(ctx, filter)) === 0) throw notWritten(ctx);
    return { status: 204 };
  }
  const stored = await ctx.collection.findOne(filter);
  if (!stored) throw notWritten(ctx);
  const document = withoutRevision(stored);
  if (beforeDelete !== undefined) await runHook(() => beforeDelete(hookContext(ctx), document));
  if ((await removeMatching(ctx, { $and: [filter, { _id: stored._id }] })) === 0) throw notWritten(ctx);
  if (afterDelete !== undefined)
    await runAfterHook(ctx, 'afterDelete', (hookCtx) => afterDelete(hookCtx, document));
  return answersDocument
    ? { status: 200, data: await presentWritten(ctx, withoutRevision(stored)) }
    : { status: 204 };
}
