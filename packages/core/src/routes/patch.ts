import type { RequestContext } from '../context';
import { storeError } from '../errors';
import { requestFilter } from '../filters';
import { idFilter } from '../ids';
import { parseJsonBody } from '../parse-body';
import type { RouteResult } from '../respond';
import type { Document } from '../storage/types';
import { stampPatched } from '../timestamps';
import { checkBodyIdMatchesPath } from './body-id';
import { documentNotFound } from './not-found';

/** Rejects keys where one is a path inside another (`a` and `a.b`): MongoDB refuses such an update. */
function checkNoOverlap(keys: string[]): void {
  const all = new Set(keys);
  for (const key of keys) {
    const segments = key.split('.');
    for (let i = 1; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('.');
      if (all.has(parent))
        throw storeError('invalid_body', `body: the keys "${parent}" and "${key}" overlap.`);
    }
  }
}

/** The `$set` of a PATCH body: `_id` must name the path's document and is then left out. */
function setOf(ctx: RequestContext, body: Document): Document {
  const keys = Object.keys(body);
  if (keys.length === 0) throw storeError('invalid_body', 'The PATCH body sets no field; send at least one.');
  if (keys.some((key) => key.startsWith('_id.')))
    throw storeError('invalid_body', 'body._id: an _id cannot change.');
  checkBodyIdMatchesPath(ctx, body._id);
  checkNoOverlap(keys);
  const set = Object.fromEntries(Object.entries(body).filter(([key]) => key !== '_id'));
  return stampPatched(ctx, Object.assign(Object.create(null), set));
}

/**
 * `PATCH /<res>/<id>`: `$set`s the body's top-level and dotted keys; 200 with the updated
 * document; 400 for an empty body; 404 when no document has the id.
 */
export async function patchDocument(ctx: RequestContext): Promise<RouteResult> {
  const body = await parseJsonBody(ctx.request, ctx.options.bodyLimit, true);
  const set = setOf(ctx, body);
  const filter = requestFilter(ctx, idFilter(ctx.route.id as string));
  const updated =
    Object.keys(set).length === 0
      ? await ctx.collection.findOne(filter)
      : await ctx.collection.findOneAndUpdate(filter, { $set: set }, { returnDocument: 'after' });
  if (!updated) throw documentNotFound(ctx);
  return { status: 200, data: updated };
}
