import type { RequestContext } from '../context';
import { requestFilter } from '../filters';
import { idFilter } from '../ids';
import { parseJsonBody } from '../parse-body';
import type { RouteResult } from '../respond';
import { stampReplaced } from '../timestamps';
import { checkBodyIdMatchesPath } from './body-id';
import { documentNotFound } from './not-found';

/**
 * `PUT /<res>/<id>`: replaces the document with the body, keeping its `_id` (a different
 * `_id` in the body is a 400) and, with timestamps, its `createdAt`; 404 when none has the id.
 */
export async function replaceDocument(ctx: RequestContext): Promise<RouteResult> {
  const body = await parseJsonBody(ctx.request, ctx.options.bodyLimit);
  checkBodyIdMatchesPath(ctx, body._id);
  const stored = await ctx.collection.findOne(requestFilter(ctx, idFilter(ctx.route.id as string)));
  if (!stored) throw documentNotFound(ctx);
  const _id = stored._id;
  const replacement = stampReplaced(ctx, Object.assign(Object.create(null), { _id }, body, { _id }), stored);
  const updated = await ctx.collection.findOneAndReplace({ _id }, replacement, { returnDocument: 'after' });
  if (!updated) throw documentNotFound(ctx);
  return { status: 200, data: updated };
}
