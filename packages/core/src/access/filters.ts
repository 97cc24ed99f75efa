import type { Collation, Document, FindOptions } from '@store/common';
import { textSearchFilter } from '@store/query';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';
import { checkHiddenQuery } from './hidden';

/**
 * ANDs filters: empty ones drop out; a single filter left is returned as it is; filters with no
 * key in common merge into one prototype-free object (so top-level-only operators such as
 * `$text` and `$nearSphere` stay top-level); otherwise `$and`.
 */
export function andFilters(...filters: Document[]): Document {
  const present: Document[] = [];
  const keys = new Set<string>();
  let shared = false;
  for (const filter of filters) {
    const own = Object.keys(filter);
    if (own.length === 0) continue;
    present.push(filter);
    for (const key of own) {
      shared ||= keys.has(key);
      keys.add(key);
    }
  }
  if (present.length === 1) return present[0] as Document;
  if (shared) return { $and: present };
  return Object.assign(Object.create(null), ...present);
}

/** The `$text` filter of `$search`: 400 `invalid_query` on a resource without searchable fields. */
function searchFilter(ctx: RequestContext): Document {
  const { search } = ctx.query;
  if (search === undefined) return {};
  if (ctx.resource.search.length === 0) {
    throw storeError(
      'invalid_query',
      `$search: the resource "${ctx.resource.name}" declares no searchable fields (resources.${ctx.resource.name}.search).`,
    );
  }
  return { $text: { $search: search } };
}

/** json-server's `q` (a foreign dialect on): some top-level string field, not a hidden one, contains the text. */
function dialectSearchFilter(ctx: RequestContext): Document {
  const search = ctx.query.dialect?.search;
  if (search === undefined) return {};
  const hidden = ctx.resource.hidden.filter((field) => !field.includes('.'));
  return textSearchFilter(search, hidden);
}

/**
 * The filter a request selects with on `ctx.resource`: the access grant's filter, ANDed outside
 * `extra`, the query-string filter (`$query` included, so its `$or` cannot escape the grant) and
 * `$search` (and json-server's `q`). A filter or `$sort` on a hidden field is a 400 `invalid_query`.
 */
export function requestFilter(ctx: RequestContext, ...extra: Document[]): Document {
  const { resource, query } = ctx;
  checkHiddenQuery(resource.name, resource.hidden, query.filter, query.sort);
  return andFilters(ctx.access.filter, ...extra, query.filter, searchFilter(ctx), dialectSearchFilter(ctx));
}

/** Find options from the compiled query, leaving out what it does not set. */
export function findOptions(ctx: RequestContext): FindOptions {
  const { projection, sort, skip, limit } = ctx.query;
  return {
    ...(projection === undefined ? {} : { projection }),
    ...(sort === undefined ? {} : { sort }),
    skip,
    limit,
    ...collated(ctx),
  };
}

const BY_BYTES: { collation?: Collation } = Object.freeze({});

/** The options that make a list's find or count compare strings by the resource's `collation` (none: by bytes). */
export function collated(ctx: RequestContext): { collation?: Collation } {
  const { collation } = ctx.resource;
  return collation === undefined ? BY_BYTES : { collation };
}
