/**
 * Public types of `@store/query`. The shape of {@link CompiledQuery} is what the compiler
 * promises every consumer (`@store/core`, `@store/populate`).
 */

/** A MongoDB document or filter, as plain data. */
export type Document = Record<string, unknown>;

/** A MongoDB filter, ready for `collection.find(filter)`. */
export type Filter = Document;

/** Sort keys in order of precedence; 1 ascending, -1 descending. */
export type SortSpec = Record<string, 1 | -1>;

/** `$select` as a MongoDB projection: `{ a: 1, b: 1, _id: 0 }` (`_id` only when listed). */
export type Projection = Record<string, 0 | 1>;

/** The result of {@link compileQuery}: everything a GET on a collection needs. */
export interface CompiledQuery {
  /** Every field filter, `$query` and `$regex` ANDed together; `{}` when there are none. */
  filter: Filter;
  /** From `$select`; `undefined` returns whole documents. */
  projection: Projection | undefined;
  /**
   * From `$sort`/`$order`, always ending with `_id` as a tie-breaker (`{ _id: 1 }` when no
   * `$sort` is given). `undefined` when the filter holds a `$nearSphere` and no `$sort` was
   * given: results then come nearest first.
   */
  sort: SortSpec | undefined;
  /** `$page * limit` (0 with `$after`). */
  skip: number;
  /** `$limit`, defaulted and clamped by {@link QueryOptions}. */
  limit: number;
  /** `$count=1`: answer `{ count }` for the whole filter. */
  count: boolean;
  /** `$total=1`: the list answer carries `X-Total-Count` (the whole filter's count) and `Link`. */
  total: boolean;
  /**
   * `$after=<cursor>`: the documents after the cursor's position in `sort`, to AND with
   * `filter` for the page (not for counts); `undefined` without `$after`. Never set with `$page`.
   */
  after: Filter | undefined;
  /** `$populate`: child resource names, in request order, without duplicates. */
  populate: string[];
  /** `$fill`: parent resource names, in request order, without duplicates. */
  fill: string[];
  /** `$search`: full-text search terms; the caller turns it into `$text` over declared fields. */
  search: string | undefined;
  /** `$$name=value` flags, keyed by `name`; a repeated flag keeps every value. */
  flags: Record<string, string | string[]>;
}

/** Options of {@link compileQuery}. */
export interface QueryOptions {
  /**
   * Page size when `$limit` is absent.
   * @default 10
   */
  defaultLimit?: number;
  /**
   * Largest accepted `$limit`; larger values are clamped to it.
   * @default 1000
   */
  maxLimit?: number;
  /**
   * The primary key's name on the wire: with `'id'`, a field filter, an `$or` group, `$query`,
   * `$regex`, `$sort` or `$select` naming `id` at the top of a document names `_id`.
   * @default '_id'
   */
  wireId?: '_id' | 'id';
}
