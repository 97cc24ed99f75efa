import type { Document } from '@store/common';
import { omitFields, withJoinKeys } from '@store/populate';
import { encodeCursor } from '@store/query';
import { andFilters, collated, findOptions, requestFilter } from '../access/filters';
import type { RequestContext, RouteResult } from '../model/context';
import { contentRange, expandParents, pageEnvelope } from './dialect-answer';
import { countableFilter } from './geo-count';
import { linkHeader } from './page-links';
import { present } from './present';
import { relationProjection, resolveRelations, wantsRelations } from './relations';

/** How to fetch a page so its cursor can be made: the projection, and the fields to strip afterwards. */
interface PageFetch {
  readonly projection: Document | undefined;
  readonly strip: readonly string[];
  /** False when `$select` keeps only parts of a sort key (its value on the page is not the stored one). */
  readonly cursorable: boolean;
}

/** The relations' projection, extended with the sort keys a cursor reads (`$select=name&$sort=-views`). */
function pageFetch(ctx: RequestContext): PageFetch {
  const { projection, strip } = relationProjection(ctx);
  const keys = Object.keys(ctx.query.sort ?? {});
  if (projection === undefined || keys.length === 0) return { projection, strip, cursorable: true };
  const selected = Object.keys(projection).filter((key) => Boolean(projection[key]));
  const covered = (key: string) => selected.some((s) => key === s || key.startsWith(`${s}.`));
  const cursorable = !keys.some((key) => selected.some((s) => s.startsWith(`${key}.`)));
  const missing = cursorable ? keys.filter((key) => !covered(key)) : [];
  const extended = withJoinKeys(projection as Record<string, 0 | 1>, missing);
  return { projection: extended.projection, strip: [...strip, ...extended.added], cursorable };
}

/** The `X-Total-Count` and `Link` headers of a page. */
function pageHeaders(
  ctx: RequestContext,
  documents: Document[],
  total: number | undefined,
  cursorable: boolean,
): Record<string, string> {
  const { sort, limit, dialect } = ctx.query;
  const full = documents.length > 0 && documents.length >= limit;
  const last = documents.at(-1);
  // json-server's page links page by number (`_page`), never by cursor.
  const byCursor = cursorable && (dialect === undefined || dialect.paging.style === 'store');
  const next = full && byCursor && sort && last ? encodeCursor(sort, last) : undefined;
  const link = linkHeader(ctx, { full, next, total });
  const range =
    total !== undefined && ctx.options.dialects.simpleRest
      ? contentRange(ctx, documents.length, total)
      : undefined;
  return {
    ...(total === undefined ? {} : { 'x-total-count': String(total) }),
    ...(link === undefined ? {} : { link }),
    ...(range === undefined ? {} : { 'content-range': range }),
  };
}

/**
 * The total a page tells by itself, without counting: when it is the filter's last page (not
 * full) and starts where the filter's documents start (no cursor), what it skipped plus what it
 * holds. An empty page past the last (`$page`) tells nothing.
 */
function lastPageTotal(ctx: RequestContext, documents: Document[]): number | undefined {
  const { skip, limit, after } = ctx.query;
  if (after !== undefined || documents.length >= limit) return undefined;
  if (documents.length === 0 && skip > 0) return undefined;
  return skip + documents.length;
}

/**
 * A list answer on `ctx.resource` (`GET /<res>` and nested routes): `{ count }` with `$count=1`
 * (the whole filter; page, limit, sort and select ignored), otherwise the page with its
 * `$populate` / `$fill` relations, as {@link present} shows them, from the `$after` cursor when
 * given. With `$total=1`, `X-Total-Count` (the whole filter, access rule applied) and a `Link`
 * header ({@link linkHeader}); the total is counted only when neither the engine's read of the
 * page (`findWithCount`) nor the page itself ({@link lastPageTotal}) tells it. With a foreign
 * dialect on, the total always, `Content-Range` (simple-rest), json-server v1's envelope for
 * `_per_page` and `_expand`'s parents as objects ({@link expandParents}). `extra` filters are
 * ANDed with the query's. Relation names are checked before any query, so a bad one is a 400
 * even on an empty page.
 */
export async function readList(ctx: RequestContext, ...extra: Document[]): Promise<RouteResult> {
  const { projection, strip, cursorable } = pageFetch(ctx);
  const filter = requestFilter(ctx, ...extra);
  const { count, total, after } = ctx.query;
  const { collection } = ctx;
  if (count) {
    const counted = await collection.countDocuments(countableFilter(filter), collated(ctx));
    return { status: 200, data: { count: counted } };
  }
  const options = { ...findOptions(ctx), ...(projection === undefined ? {} : { projection }) };
  const pageFilter = after === undefined ? filter : andFilters(filter, after);
  // With a total to tell and no cursor, an engine that scans for the page also counts its
  // matches (`findWithCount`): one scan, not two.
  const page =
    total && after === undefined && collection.findWithCount !== undefined
      ? await collection.findWithCount(pageFilter, options)
      : undefined;
  const documents = page?.documents ?? (await collection.find(pageFilter, options).toArray());
  const counted = total
    ? (page?.count ??
      lastPageTotal(ctx, documents) ??
      (await collection.countDocuments(countableFilter(filter), collated(ctx))))
    : undefined;
  const headers = pageHeaders(ctx, documents, counted, cursorable);
  const related = wantsRelations(ctx)
    ? await resolveRelations(ctx, { documents, strip })
    : strip.length > 0
      ? documents.map((doc) => omitFields(doc, strip))
      : documents;
  const data = expandParents(ctx, await present(ctx, related));
  const envelope = ctx.query.dialect?.envelope === true && counted !== undefined;
  return { status: 200, data: envelope ? pageEnvelope(ctx, data, counted) : data, headers };
}
