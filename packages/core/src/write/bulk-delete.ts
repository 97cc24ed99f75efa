/**
 * `DELETE /<res>?<filter>`: deletes every document the filter matches
 * inside the access rule (under `softDelete`, sets their `deletedAt`), answering `{ deleted }`;
 * at most `maxBulk` of them, else 400 `too_many_items` before any write.
 * With `beforeDelete` or `afterDelete`, the documents are read first (at most `maxBulk`): each
 * goes to `beforeDelete` before any is deleted (one refusal refuses the request, naming the
 * document), and each deleted one to `afterDelete`.
 */
import { idToString } from '@store/common';
import { hookContext } from '../hooks/hook-context';
import { runAfterHook, runHook } from '../hooks/hooks';
import type { RequestContext, RouteResult } from '../model/context';
import { withoutRevision } from '../model/revision';
import { withoutBudgets } from '../read/request-budgets';
import { bulkFilter, cappedFilter, chosen, forDocument, readAffected } from './bulk-scope';
import { removeMatching } from './delete';

/** `DELETE /<res>?<filter>`: 200 `{ deleted }`. */
export async function deleteMatching(ctx: RequestContext): Promise<RouteResult> {
  const filter = bulkFilter(ctx);
  const { beforeDelete, afterDelete } = ctx.resource.hooks;
  if (beforeDelete === undefined && afterDelete === undefined) {
    const capped = await cappedFilter(ctx, filter);
    return { status: 200, data: { deleted: capped === null ? 0 : await removeMatching(ctx, capped, true) } };
  }
  const stored = await readAffected(ctx, filter);
  const documents = stored.map(withoutRevision);
  if (beforeDelete !== undefined) {
    for (const document of documents)
      await forDocument(document, () => runHook(() => beforeDelete(hookContext(ctx), document)));
  }
  const target = chosen(ctx, filter, stored);
  const deleted = await removeMatching(ctx, target, true);
  if (afterDelete !== undefined) {
    // Those still there were not deleted (another request changed them in between); read
    // whatever the budgets left: the deletion is done.
    const left = deleted === stored.length ? [] : await withoutBudgets(ctx.collection).find(target).toArray();
    const kept = new Set(left.map((document) => idToString(document._id)));
    for (const document of documents) {
      if (kept.has(idToString(document._id))) continue;
      await runAfterHook(ctx, 'afterDelete', (hookCtx) => afterDelete(hookCtx, document));
    }
  }
  return { status: 200, data: { deleted } };
}
