/**
 * `If-Match` on `PUT`, `PATCH` and `DELETE` of one document (RFC 9110 section 13.1.1): the
 * write happens only while the document, as the caller sees it, still has a tag the header
 * names; otherwise 412 `precondition_failed`.
 *
 * A document's strong `ETag` is a hash of its answer (`http/etag.ts`), so the check reads the
 * document, presents it to the caller as a plain `GET` (or a write's answer) would, and compares
 * that answer's tag with the header. A write the caller cannot see (a hidden field, another
 * user's document) leaves its tag, and its `If-Match`, valid. A tag of an answer shaped by the
 * query string (`$select`, `$populate`) names that answer, not the document: it does not match.
 * `*` matches any current document; weak tags never match (strong comparison, as the RFC asks
 * for `If-Match`).
 *
 * The check and the write are one atomic step: the write's filter names the stored revision the
 * check read (`sameRevision`), so a write in between (of two carrying the same `If-Match`, the
 * one that comes second) matches nothing and answers 412.
 */
import type { Document } from '@store/common';
import { listedTags, strongTag } from '../http/etag';
import { documentNotFound } from '../http/not-found';
import { respond } from '../http/respond';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';
import { sameRevision } from '../model/revision';
import { presentOne } from '../read/present';

/** The tags `If-Match` lists, or `undefined` without one. */
const ifMatchOf = (ctx: RequestContext) => listedTags(ctx.request.headers['if-match']);

/** Whether `listed` names `current` as the caller sees it: `*`, or the strong tag of its answer. */
async function namesCurrent(ctx: RequestContext, listed: string[], current: Document): Promise<boolean> {
  if (listed.includes('*')) return true;
  const strong = listed.filter((tag) => tag.length >= 2 && tag.startsWith('"') && tag.endsWith('"'));
  if (strong.length === 0) return false;
  const { body } = respond({ status: 200, data: await presentOne(ctx, current) });
  return body !== undefined && strong.includes(strongTag(body));
}

function preconditionFailed(ctx: RequestContext, why: string) {
  return storeError(
    'precondition_failed',
    `If-Match: the document ${JSON.stringify(ctx.route.id ?? '')} of "${ctx.resource.name}" ${why}; read it again (the ETag of a plain GET) and retry.`,
  );
}

/**
 * The filter a write of one document uses: `filter` itself without `If-Match`; with it, the
 * document is read (412 when there is none the caller may write, or its answer's tag is not one
 * the header names) and `filter` narrowed to that document at the stored revision read.
 */
export async function conditionalFilter(ctx: RequestContext, filter: Document): Promise<Document> {
  const listed = ifMatchOf(ctx);
  if (listed === undefined) return filter;
  const current = await ctx.collection.findOne(filter);
  if (!current) throw preconditionFailed(ctx, 'does not exist');
  // Taken before `afterRead` sees the document (a hook may change what it is handed).
  const atRevision = sameRevision(current);
  if (!(await namesCurrent(ctx, listed, current)))
    throw preconditionFailed(
      ctx,
      'does not have that ETag (it has changed, or the tag is of another answer)',
    );
  return { $and: [filter, atRevision] };
}

/**
 * The error of a write that found nothing to change: 404, or under `If-Match` 412 (the
 * document changed, or went, between the check and the write).
 */
export function notWritten(ctx: RequestContext) {
  return ifMatchOf(ctx) === undefined
    ? documentNotFound(ctx)
    : preconditionFailed(ctx, 'changed while it was being written');
}
