/**
 * `PATCH /<res>?<filter>`: `$set`s the body on every document the filter
 * matches inside the access rule (at most `maxBulk`: past it 400 `too_many_items` before any
 * write), answering `{ matched, modified }`. The body is a PATCH body
 * (top-level and dotted keys, after `beforeWrite` with `previous: null`; protected, owner and
 * managed fields refused, 403). A document is modified when one of the fields the body sets has
 * another value: only those get the new values, `updatedAt` and a new revision, as MongoDB's own
 * `modifiedCount` would count them. With `schema`, `afterWrite` or a geo field set, every
 * document is read first (at most `maxBulk`): each result is checked before any is written (a
 * bad one is a 400 naming its `_id`), and `afterWrite` sees each change.
 */
import { type Document, idToString } from '@store/common';
import { andFilters } from '../access/filters';
import { protectPatch } from '../access/writes';
import { afterWritten, applyBeforeWrite } from '../hooks/hooks';
import { isMergePatch, parseJsonBody } from '../http/parse-body';
import type { RequestContext, RouteResult } from '../model/context';
import { storeError } from '../model/error-codes';
import { newRevision, REVISION_FIELD } from '../model/revision';
import { withoutBudgets } from '../read/request-budgets';
import { bulkFilter, cappedFilter, chosen, forDocument, readAffected } from './bulk-scope';
import { checkGeoFields, touchesGeo } from './geo-fields';
import { applySet } from './merge-set';
import { setOf } from './patch';
import { isManaged } from './timestamps';
import { validateBody } from './validate-body';
import { bodyFromWire } from './wire-body';

/**
 * Matches a document on which at least one of the fields `set` names is missing or has another
 * value (aggregation equality: exact, no array traversal). The missing case is its own clause,
 * so nothing rests on whether an expression counts a missing field as `null`.
 */
function differsFrom(set: Document): Document | null {
  const fields = Object.keys(set).filter((path) => !isManaged(path));
  if (fields.length === 0) return null;
  const changed = { $expr: { $or: fields.map((path) => ({ $ne: [`$${path}`, { $literal: set[path] }] })) } };
  return { $or: [changed, ...fields.map((path) => ({ [path]: { $exists: false } }))] };
}

/** Applies `set` where it changes something; how many `filter` matched, and how many changed. */
async function setWhereDifferent(ctx: RequestContext, filter: Document, set: Document) {
  const matched = await ctx.collection.countDocuments(filter);
  const differs = differsFrom(set);
  if (differs === null || matched === 0) return { matched, modified: 0 };
  const update = { $set: { ...set, [REVISION_FIELD]: newRevision() } };
  const { matchedCount, modifiedCount } = await ctx.collection.updateMany(
    andFilters(filter, differs),
    update,
  );
  return { matched: Math.max(matched, matchedCount), modified: modifiedCount };
}

/** Checks the document `set` makes of each of `documents` (schema, GeoJSON); a bad one is a 400 naming its `_id`. */
async function checkResults(ctx: RequestContext, documents: Document[], set: Document): Promise<void> {
  const geo = touchesGeo(ctx, Object.keys(set));
  for (const document of documents) {
    await forDocument(document, () => {
      const result = applySet(document, set);
      validateBody(ctx, result);
      if (geo) checkGeoFields(ctx, result);
    });
  }
}

/** `afterWrite` for each document the update changed (its revision is new); read whatever the budgets left. */
async function afterEachWrite(ctx: RequestContext, before: Document[]): Promise<void> {
  const ids = before.map((document) => document._id);
  const after = await withoutBudgets(ctx.collection)
    .find({ _id: { $in: ids } })
    .toArray();
  const byId = new Map(after.map((document) => [idToString(document._id), document]));
  for (const previous of before) {
    const current = byId.get(idToString(previous._id));
    if (current !== undefined && current[REVISION_FIELD] !== previous[REVISION_FIELD])
      await afterWritten(ctx, previous, current);
  }
}

/** `PATCH /<res>?<filter>`: 200 `{ matched, modified }`. */
export async function patchMatching(ctx: RequestContext): Promise<RouteResult> {
  if (isMergePatch(ctx.request)) {
    throw storeError(
      'unsupported_media_type',
      'A bulk PATCH takes application/json (the fields to set); a merge patch applies to one document.',
    );
  }
  const filter = bulkFilter(ctx);
  const parsed = bodyFromWire(ctx, await parseJsonBody(ctx.request, ctx.options.bodyLimit, true));
  const set = protectPatch(ctx, setOf(ctx, await applyBeforeWrite(ctx, parsed, null), true));
  const { validate, hooks } = ctx.resource;
  if (validate === undefined && hooks.afterWrite === undefined && !touchesGeo(ctx, Object.keys(set))) {
    const capped = await cappedFilter(ctx, filter);
    const counts = capped === null ? { matched: 0, modified: 0 } : await setWhereDifferent(ctx, capped, set);
    return { status: 200, data: counts };
  }
  const before = await readAffected(ctx, filter);
  await checkResults(ctx, before, set);
  const counts = await setWhereDifferent(ctx, chosen(ctx, filter, before), set);
  if (hooks.afterWrite !== undefined) await afterEachWrite(ctx, before);
  return { status: 200, data: counts };
}
