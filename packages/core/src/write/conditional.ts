/**
 * `If-Match` on `PUT`, `PATCH` and `DELETE` of one document (RFC 9110 section
 * 13.1.1): the write happens only while the document still has a revision the header
 * names; otherwise 412 `precondition_failed`. The check and the write are one atomic step: the
 * write's filter names the revision read (`sameRevision`), so of two writes carrying the same
 * `If-Match`, the second matches nothing and answers 412.
 *
 * A document's `ETag` is `"<revision>:<hash of the answer>"`; `If-Match` compares the revision
 * part only, so the tag of any answer about the document (a `GET` with `$select`, a write's
 * answer) names its version. `*` matches any current document. Weak tags never match (strong
 * comparison, as the RFC asks for `If-Match`). A document stored without a revision (by other
 * code) is tagged `"0:<hash>"`: its hash part is compared with its answer to a plain `GET`.
 */
import type { Document } from '@store/common';
import { answerDigest, listedTags } from '../http/etag';
import { documentNotFound } from '../http/not-found';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';
import { revisionOf, sameRevision, UNREVISED } from '../model/revision';
import { presentOne } from '../read/present';

/** The tags `If-Match` lists, or `undefined` without one. */
const ifMatchOf = (ctx: RequestContext) => listedTags(ctx.request.headers['if-match']);

/** One tag an `If-Match` names: `*`, or the revision and hash parts of a strong tag (weak tags name none). */
type NamedTag = '*' | { revision: string; digest: string };

function namedTags(listed: string[]): NamedTag[] {
  const tags: NamedTag[] = [];
  for (const tag of listed) {
    if (tag === '*') tags.push('*');
    else if (tag.length >= 2 && tag.startsWith('"') && tag.endsWith('"')) {
      const [revision = '', digest = ''] = tag.slice(1, -1).split(':');
      tags.push({ revision, digest });
    }
  }
  return tags;
}

/**
 * Whether `tags` name the current version of `current`: its revision, or, for a document stored
 * without one, the hash of its answer to a plain `GET` (what the client's tag was made from).
 */
async function namesCurrent(ctx: RequestContext, tags: NamedTag[], current: Document): Promise<boolean> {
  if (tags.includes('*')) return true;
  const revision = revisionOf(current);
  const named = tags.filter((tag) => tag !== '*' && tag.revision === revision) as Exclude<NamedTag, '*'>[];
  if (named.length === 0 || revision !== UNREVISED) return named.length > 0;
  const digest = answerDigest(JSON.stringify(await presentOne(ctx, current)));
  return named.some((tag) => tag.digest === digest);
}

function preconditionFailed(ctx: RequestContext, why: string) {
  return storeError(
    'precondition_failed',
    `If-Match: the document ${JSON.stringify(ctx.route.id ?? '')} of "${ctx.resource.name}" ${why}; read it again (its ETag) and retry.`,
  );
}

/**
 * The filter a write of one document uses: `filter` itself without `If-Match`; with it, the
 * document is read (412 when there is none the caller may write, or its revision is not one the
 * header names) and `filter` narrowed to that document at that revision.
 */
export async function conditionalFilter(ctx: RequestContext, filter: Document): Promise<Document> {
  const listed = ifMatchOf(ctx);
  if (listed === undefined) return filter;
  const current = await ctx.collection.findOne(filter);
  if (!current) throw preconditionFailed(ctx, 'does not exist');
  if (!(await namesCurrent(ctx, namedTags(listed), current)))
    throw preconditionFailed(ctx, 'has changed since that ETag');
  return { $and: [filter, sameRevision(current)] };
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
