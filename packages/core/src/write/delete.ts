import { idFilter } from '@store/common';
import { documentNotFound } from '../http/not-found';
import type { RequestContext, RouteResult } from '../model/context';
import { requestFilter } from '../read/filters';

/** `DELETE /<res>/<id>`: 204 without a body; 404 when no document the caller may delete has the id. */
export async function deleteDocument(ctx: RequestContext): Promise<RouteResult> {
  const { deletedCount } = await ctx.collection.deleteOne(
    requestFilter(ctx, idFilter(ctx.route.id as string)),
  );
  if (deletedCount === 0) throw documentNotFound(ctx);
  return { status: 204 };
}
