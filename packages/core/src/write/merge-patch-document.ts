import type { Document } from '@store/common';
import { protectPatch } from '../access/writes';
import { afterWritten, applyBeforeWrite } from '../hooks/hooks';
import type { RequestContext, RouteResult } from '../model/context';
import { storeError } from '../model/error-codes';
import { newRevision, REVISION_FIELD, revisionOf } from '../model/revision';
import { checkBodyIdMatchesPath } from './body-id';
import { notWritten } from './conditional';
import { checkGeoFields, touchesGeo } from './geo-fields';
import { mergePatchUpdate } from './merge-patch';
import { applySet } from './merge-set';
import { presentWritten } from './present-written';
import { isManaged, stampPatched } from './timestamps';
import { validateBody } from './validate-body';

/** The document `set` and `unset` make of `stored`, for `schema` and the geo check. */
function resultOf(stored: Document, set: Document, unset: readonly string[]): Document {
  const result = applySet(stored, set);
  for (const path of unset) {
    const parts = path.split('.');
    let node: unknown = result;
    for (const part of parts.slice(0, -1)) node = (node as Document | undefined)?.[part];
    if (typeof node === 'object' && node !== null) delete (node as Document)[parts.at(-1) as string];
  }
  return result;
}

/** The `$set` / `$unset` of a merge patch, the owner and managed fields protected as on any PATCH. */
function updateOf(ctx: RequestContext, stored: Document, body: Document) {
  if (Object.hasOwn(body, '_id') && body._id === null) {
    const name = ctx.options.wireId;
    throw storeError('invalid_body', `body.${name}: an ${name} cannot be removed.`);
  }
  checkBodyIdMatchesPath(ctx, body._id);
  const patch = Object.fromEntries(Object.entries(body).filter(([key]) => key !== '_id'));
  const merged = mergePatchUpdate(stored, patch);
  const set = protectPatch(ctx, stampPatched(ctx, Object.assign(Object.create(null), merged.set)));
  const unset = ctx.resource.timestamps ? merged.unset.filter((path) => !isManaged(path)) : merged.unset;
  protectPatch(ctx, Object.fromEntries(unset.map((path) => [path, null])));
  return { set, unset };
}

/**
 * `PATCH /<res>/<id>` with `content-type: application/merge-patch+json`: RFC 7396 (nested
 * objects merge, `null` removes, arrays replace), after `beforeWrite`, as one update of the
 * stored document; otherwise as a plain PATCH (404, 403 on protected fields, `schema`, geo).
 */
export async function mergePatchDocument(
  ctx: RequestContext,
  parsed: Document,
  filter: Document,
): Promise<RouteResult> {
  const stored = await ctx.collection.findOne(filter);
  if (!stored) throw notWritten(ctx);
  const { set, unset } = updateOf(ctx, stored, await applyBeforeWrite(ctx, parsed, stored));
  const result = resultOf(stored, set, unset);
  validateBody(ctx, result);
  if (touchesGeo(ctx, [...Object.keys(set), ...unset])) checkGeoFields(ctx, result);
  const update: Document = { $set: { ...set, [REVISION_FIELD]: newRevision() } };
  if (unset.length > 0) update.$unset = Object.fromEntries(unset.map((path) => [path, '']));
  const target = { $and: [filter, { _id: stored._id }] };
  const updated = await ctx.collection.findOneAndUpdate(target, update, { returnDocument: 'after' });
  if (!updated) throw notWritten(ctx);
  await afterWritten(ctx, stored, updated);
  return { status: 200, data: await presentWritten(ctx, updated), revision: revisionOf(updated) };
}
