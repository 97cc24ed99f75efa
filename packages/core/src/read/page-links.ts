import type { RequestContext } from '../model/context';

/** Where a page link points: a `$page` number, an `$after` cursor, or neither (the first page). */
type PageTarget = { page: number } | { after: string } | Record<string, never>;

/** What a list answer knows of its place, for its `Link` header. */
interface PagePosition {
  /** The cursor after the last document of a full page; `undefined` when the page is not full or no cursor can be made. */
  readonly next: string | undefined;
  /** Whether the page is full (as many documents as `$limit`). */
  readonly full: boolean;
  /** The whole filter's count, with `$total=1`. */
  readonly total: number | undefined;
}

const PAGING = new Set(['$page', '$after']);

function decodedKey(part: string): string {
  const eq = part.indexOf('=');
  const key = (eq === -1 ? part : part.slice(0, eq)).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/**
 * The paging parameters of `target` in the request's own terms: `$page` / `$after`; after a
 * foreign dialect's paging (its parameters left out), json-server's `_page` (from 1) with its
 * page size, or the store's own with `$limit`.
 */
function pagingParts(ctx: RequestContext, target: PageTarget): string[] {
  const { dialect, limit } = ctx.query;
  const style = dialect?.paging.style ?? 'store';
  if (style !== 'store') {
    const page = 'page' in target ? target.page : 0;
    return [`_page=${page + 1}`, `${style}=${limit}`];
  }
  const parts = dialect !== undefined && dialect.paging.keys.length > 0 ? [`$limit=${limit}`] : [];
  if ('page' in target && target.page > 0) parts.push(`$page=${target.page}`);
  if ('after' in target) parts.push(`$after=${target.after}`);
  return parts;
}

/** The request's own URL (`baseUrl` or mount path, as `Location` headers are built) with `target` as its paging. */
function pageUrl(ctx: RequestContext, target: PageTarget): string {
  const base = ctx.options.baseUrl ?? (ctx.request.mountPath ?? '').replace(/\/+$/, '');
  const raw = ctx.request.rawQuery.startsWith('?') ? ctx.request.rawQuery.slice(1) : ctx.request.rawQuery;
  const dialectKeys = ctx.query.dialect?.paging.keys ?? [];
  const parts = raw.split('&').filter((part) => {
    if (part.length === 0) return false;
    const key = decodedKey(part);
    return !PAGING.has(key) && !dialectKeys.includes(key);
  });
  parts.push(...pagingParts(ctx, target));
  return `${base}${ctx.request.path}${parts.length > 0 ? `?${parts.join('&')}` : ''}`;
}

/**
 * The `Link` header (RFC 8288) of a list answer. `next` follows the cursor of a full page
 * (`$page=<n+1>` when no cursor can be made: a `geo:near` order); with `$total=1` it also
 * carries `first`, `prev` and `last` as `$page` URLs, with no `prev` on the first page and no
 * `next` on the last. `undefined` when there is nothing to link.
 */
export function linkHeader(ctx: RequestContext, position: PagePosition): string | undefined {
  const { skip, limit, after } = ctx.query;
  const page = Math.floor(skip / limit);
  const links: [string, PageTarget][] = [];
  const last = position.total === undefined ? undefined : Math.max(0, Math.ceil(position.total / limit) - 1);
  if (last !== undefined) {
    links.push(['first', {}]);
    if (page > 0 && after === undefined) links.push(['prev', { page: Math.min(page - 1, last) }]);
  }
  const more = position.full && (last === undefined || after !== undefined || page < last);
  if (more) {
    const target = position.next === undefined ? { page: page + 1 } : { after: position.next };
    if (position.next !== undefined || after === undefined) links.push(['next', target]);
  }
  if (last !== undefined) links.push(['last', { page: last }]);
  if (links.length === 0) return undefined;
  return links.map(([rel, target]) => `<${pageUrl(ctx, target)}>; rel="${rel}"`).join(', ');
}
