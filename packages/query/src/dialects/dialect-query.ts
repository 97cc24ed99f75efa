/**
 * What a request in a foreign client dialect (json-server, simple-rest) means in the store's own
 * query language, and what its answer must look like. Types and the per-request state the
 * parameter tables fill.
 */
/** Which foreign dialects a store reads besides its own. */
export interface DialectSwitches {
  readonly jsonServer: boolean;
  readonly simpleRest: boolean;
}

/** How the `Link` header's URLs page a list read in a foreign dialect. */
export type LinkStyle =
  /** `$page` (or `$after`) with `$limit`: the store's own parameters. */
  | 'store'
  /** json-server 0.17: `_page` (from 1) with `_limit`. */
  | '_limit'
  /** json-server v1: `_page` (from 1) with `_per_page`. */
  | '_per_page';

/** A request read through the foreign dialects that are on. */
export interface DialectQuery {
  /** The request in the store's own parameters; parameters of the store's own dialect pass as sent. */
  readonly query: string;
  /**
   * `q`: the text one of a document's top-level string fields must contain (case-insensitive);
   * {@link textSearchFilter} turns it into a filter once the resource's hidden fields are known.
   */
  readonly search: string | undefined;
  /** Where the page starts, when the dialect gives an offset (`_start`, `_page`, `range`); else from `$page`. */
  readonly skip: number | undefined;
  /**
   * No paging at all (neither the dialect's nor the store's own): the whole list, up to the
   * store's `maxLimit`, as json-server answers and as react-admin's `getMany` expects.
   */
  readonly whole: boolean;
  /** json-server v1's `_per_page`: the list answer is `{ first, prev, next, last, pages, items, data }`. */
  readonly envelope: boolean;
  /** The paging parameters the request sent (left out of `Link` URLs), and how those URLs page. */
  readonly paging: { readonly keys: readonly string[]; readonly style: LinkStyle };
  /** `_embed` (and simple-rest's `embed`) names: a related resource, or the singular of a parent. */
  readonly embed: readonly string[];
  /** `_expand` names: the singular of a parent resource, answered as one object. */
  readonly expand: readonly string[];
}

/** A sort key as a dialect gives it. */
export interface DialectSortKey {
  field: string;
  /** From a `-field`; undefined when only the direction list (`_order`) says. */
  descending: boolean | undefined;
}

/** What the foreign parameters of one query string add up to. */
export interface DialectState {
  /** Parts of the store's own query string, raw (as sent) or encoded by {@link ownPart}. */
  own: string[];
  search: string | undefined;
  /** `_sort` / simple-rest's `sort`, with the parameter that gave it. */
  sort: { parameter: string; keys: DialectSortKey[] } | undefined;
  order: ('asc' | 'desc')[] | undefined;
  start: number | undefined;
  end: number | undefined;
  limit: number | undefined;
  page: number | undefined;
  perPage: number | undefined;
  /** simple-rest's inclusive `[first, last]`, from `range` or the `Range` header. */
  range: { parameter: string; first: number; last: number } | undefined;
  embed: string[];
  expand: string[];
  /** Foreign parameters seen, by name (each may be given once). */
  seen: Set<string>;
  /** Paging parameters of the store's own dialect in the query (`$limit`, `$page`, `$after`). */
  ownPaging: string[];
}

export function newDialectState(): DialectState {
  return {
    own: [],
    search: undefined,
    sort: undefined,
    order: undefined,
    start: undefined,
    end: undefined,
    limit: undefined,
    page: undefined,
    perPage: undefined,
    range: undefined,
    embed: [],
    expand: [],
    seen: new Set(),
    ownPaging: [],
  };
}

/** One `key=value` part of the store's own query string, encoded. */
export function ownPart(key: string, value: string): string {
  return `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
}
