import type { Document } from '@store/common';
import { idFilter } from '@store/common';
import { requestFilter } from '../access/filters';
import { protectPatch } from '../access/writes';
import { afterWritten, applyBeforeWrite } from '../hooks/hooks';
import { isMergePatch, parseJsonBody } from '../http/parse-body';
import type { RequestContext, RouteResult } from '../model/context';
import { storeError } from '../model/error-codes';
import { newRevision, REVISION_FIELD, revisionOf } from '../model/revision';
import { checkBodyIdMatchesPath } from './body-id';
import { conditionalFilter, notWritten } from './conditional';
import { checkGeoFields, touchesGeo } from './geo-fields';
import { mergePatchDocument } from './merge-patch-document';
import { applySet, checkNoOverlap } from './merge-set';
import { presentWritten } from './present-written';
import { stampPatched } from './timestamps';
import { validateBody } from './validate-body';
import { bodyFromWire } from './wire-body';

/**
 * The `$set` of a PATCH body (timestamps stamped): at least one key, none overlapping another.
 * On one document `_id` must name the path's and is then left out; a bulk PATCH takes none.
 * Messages name the key as the wire shows it (`wireId`).
 */
export function setOf(ctx: RequestContext, body: Document, bulk = false): Document {
  const keys = Object.keys(body);
  if (keys.length === 0) throw storeError('invalid_body', 'The PATCH body sets no field; send at least one.');
  const name = ctx.options.wireId;
  if (bulk && keys.some((key) => key === '_id' || key.startsWith('_id.')))
    throw storeError('invalid_body', `body.${name}: a bulk PATCH cannot set ${name}.`);
  if (keys.some((key) => key.startsWith('_id.')))
    throw storeError('invalid_body', `body.${name}: an ${name} cannot change.`);
  checkBodyIdMatchesPath(ctx, body._id);
  checkNoOverlap(keys);
  const set = Object.fromEntries(Object.entries(body).filter(([key]) => key !== '_id'));
  return stampPatched(ctx, Object.assign(Object.create(null), set));
}

/** The stored document a PATCH changes, when `schema` needs it to check the result; else `null`. */
async function previousFor(ctx: RequestContext, filter: Document): Promise<Document | null> {
  if (ctx.resource.validate === undefined) return null;
  const previous = await ctx.collection.findOne(filter);
  if (!previous) throw notWritten(ctx);
  return previous;
}

/** The geo fields of the document the PATCH would make, when it sets one (MongoDB error 16755). */
async function checkPatchedGeo(
  ctx: RequestContext,
  filter: Document,
  previous: Document | null,
  set: Document,
) {
  if (!touchesGeo(ctx, Object.keys(set))) return;
  const base = previous ?? (await ctx.collection.findOne(filter));
  if (!base) throw notWritten(ctx);
  checkGeoFields(ctx, applySet(base, set));
}

/**
 * `PATCH /<res>/<id>`: `$set`s the body's top-level and dotted keys (after `beforeWrite`; the
 * owner and managed fields cannot change, 403); with `schema`, the document it would produce
 * must satisfy it. 200 with the updated document; 400 for an empty body; 404 when no document
 * the caller may update has the id. An `application/merge-patch+json` body is RFC 7396 instead
 * (`mergePatchDocument`).
 */
export async function patchDocument(ctx: RequestContext): Promise<RouteResult> {
  const mergePatch = isMergePatch(ctx.request);
  const parsed = bodyFromWire(ctx, await parseJsonBody(ctx.request, ctx.options.bodyLimit, !mergePatch));
  const filter = await conditionalFilter(ctx, requestFilter(ctx, idFilter(ctx.route.id as string)));
  if (mergePatch) return mergePatchDocument(ctx, parsed, filter);
  const known = await previousFor(ctx, filter);
  // afterWrite is handed the document as it was: read it when the schema did not need it.
  const previous =
    known === null && ctx.resource.hooks.afterWrite !== undefined
      ? await ctx.collection.findOne(filter)
      : known;
  const set = protectPatch(ctx, setOf(ctx, await applyBeforeWrite(ctx, parsed, previous)));
  if (previous !== null) validateBody(ctx, applySet(previous, set));
  await checkPatchedGeo(ctx, filter, previous, set);
  set[REVISION_FIELD] = newRevision();
  const updated = await ctx.collection.findOneAndUpdate(filter, { $set: set }, { returnDocument: 'after' });
  if (!updated) throw notWritten(ctx);
  await afterWritten(ctx, previous, updated);
  return { status: 200, data: await presentWritten(ctx, updated), revision: revisionOf(updated) };
}
