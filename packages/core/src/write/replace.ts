import { idFilter } from '@store/common';
import { requestFilter } from '../access/filters';
import { protectReplacement } from '../access/writes';
import { afterWritten, applyBeforeWrite } from '../hooks/hooks';
import { parseJsonBody } from '../http/parse-body';
import type { RequestContext, RouteResult } from '../model/context';
import { newRevision, REVISION_FIELD, revisionOf } from '../model/revision';
import { checkBodyIdMatchesPath } from './body-id';
import { conditionalFilter, notWritten } from './conditional';
import { checkGeoFields } from './geo-fields';
import { presentWritten } from './present-written';
import { stampReplaced } from './timestamps';
import { validateBody } from './validate-body';
import { bodyFromWire } from './wire-body';

/**
 * `PUT /<res>/<id>`: replaces the document with the body (after `beforeWrite`), keeping its
 * `_id` (a different `_id` in the body is a 400), its owner and managed fields (a different
 * value is a 403) and, with timestamps, its `createdAt`; 404 when none the caller may update
 * has the id.
 */
export async function replaceDocument(ctx: RequestContext): Promise<RouteResult> {
  const parsed = bodyFromWire(ctx, await parseJsonBody(ctx.request, ctx.options.bodyLimit));
  checkBodyIdMatchesPath(ctx, parsed._id);
  const filter = await conditionalFilter(ctx, requestFilter(ctx, idFilter(ctx.route.id as string)));
  const stored = await ctx.collection.findOne(filter);
  if (!stored) throw notWritten(ctx);
  const body = await applyBeforeWrite(ctx, parsed, stored);
  checkBodyIdMatchesPath(ctx, body._id);
  const _id = stored._id;
  const replacement = protectReplacement(
    ctx,
    Object.assign(Object.create(null), { _id }, body, { _id }),
    stored,
  );
  validateBody(ctx, replacement);
  checkGeoFields(ctx, replacement);
  stampReplaced(ctx, replacement, stored);
  replacement[REVISION_FIELD] = newRevision();
  const updated = await ctx.collection.findOneAndReplace({ $and: [filter, { _id }] }, replacement, {
    returnDocument: 'after',
  });
  if (!updated) throw notWritten(ctx);
  await afterWritten(ctx, stored, updated);
  return { status: 200, data: await presentWritten(ctx, updated), revision: revisionOf(updated) };
}
