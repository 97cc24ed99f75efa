/**
 * Parameters of another client dialect sent to a store that reads only its own: the store
 * answers them 400 `foreign_dialect_parameter` with a hint naming the option that turns the
 * dialect on and the store's own way to say it, instead of reading `_sort` as a field filter
 * (an empty list that looks like an answer).
 */
import { decode, queryParts } from '../parse';
import { fail } from '../query-error';
import { splitSuffix } from './dialect-values';

/** The `dialects` option that reads a parameter. */
type DialectOption = 'jsonServer' | 'simpleRest';

interface ForeignName {
  readonly dialects: readonly DialectOption[];
  /** The store's own way to say it. */
  readonly instead: string;
  /** It shapes a page (order, range, relations shown): no meaning for a bulk change. */
  readonly page?: true;
}

const BOTH: readonly DialectOption[] = ['jsonServer', 'simpleRest'];
const JSON_SERVER: readonly DialectOption[] = ['jsonServer'];
const SIMPLE_REST: readonly DialectOption[] = ['simpleRest'];
const PAGE = '$limit=<n> with $page=<n> (from 0) or $after';

/** Every parameter name of the foreign dialects, and the store's own form of it. */
export const FOREIGN_NAMES: Readonly<Record<string, ForeignName>> = {
  _sort: { dialects: BOTH, instead: '$sort=<field> (-<field> descending)', page: true },
  _order: { dialects: BOTH, instead: '$sort=-<field> or $order=desc', page: true },
  _start: { dialects: BOTH, instead: PAGE, page: true },
  _end: { dialects: BOTH, instead: PAGE, page: true },
  _limit: { dialects: JSON_SERVER, instead: '$limit=<n>', page: true },
  _page: { dialects: JSON_SERVER, instead: '$page=<n> (from 0)', page: true },
  _per_page: { dialects: JSON_SERVER, instead: '$limit=<n>', page: true },
  _embed: { dialects: JSON_SERVER, instead: '$populate=<children> or $fill=<parents>', page: true },
  _expand: { dialects: JSON_SERVER, instead: '$fill=<parents>', page: true },
  q: { dialects: BOTH, instead: '$search=<text> (over searchable fields) or <field>:contains=<text>' },
  range: { dialects: SIMPLE_REST, instead: PAGE, page: true },
  sort: { dialects: SIMPLE_REST, instead: '$sort=<field> (-<field> descending)', page: true },
  filter: { dialects: SIMPLE_REST, instead: '<field>=<value> parameters' },
  embed: { dialects: SIMPLE_REST, instead: '$populate=<children> or $fill=<parents>', page: true },
};

const DIALECT_NAMES: Readonly<Record<DialectOption, string>> = {
  jsonServer: 'json-server',
  simpleRest: 'simple-rest',
};

/** What a foreign parameter is, or `undefined` for a parameter of the store's own dialect. */
function foreignName(key: string): (ForeignName & { field: string }) | undefined {
  if (Object.hasOwn(FOREIGN_NAMES, key)) return { ...(FOREIGN_NAMES[key] as ForeignName), field: key };
  if (key.startsWith('$') || key.includes(':')) return undefined;
  const suffix = splitSuffix(key);
  if (suffix === undefined) return undefined;
  const instead =
    suffix.operator === 'like'
      ? `${suffix.field}:contains=<text> or $regex=["${suffix.field}","<pattern>"]`
      : `${suffix.field}:${suffix.operator}=<value>`;
  return { dialects: BOTH, instead, field: key };
}

/** Whether a parameter name may be a foreign one: the cheap test run before {@link foreignName}. */
const MAY_BE_FOREIGN =
  /(?:^|&)(?:_|q=|q&|q$|range|sort|filter|embed|[^&=]*_(?:gte|lte|gt|lt|ne|like)(?:=|&|$))/;

/**
 * The parameter names of `rawQuery` that belong to a foreign dialect (field names included, so
 * the caller can let through those a resource declares), each once, in order.
 */
export function foreignParameters(rawQuery: string): string[] {
  const text = rawQuery.charCodeAt(0) === 63 /* ? */ ? rawQuery.slice(1) : rawQuery;
  if (!MAY_BE_FOREIGN.test(text) && !text.includes('%')) return [];
  const found: string[] = [];
  for (const part of queryParts(text)) {
    const eq = part.indexOf('=');
    const raw = decode(eq === -1 ? part : part.slice(0, eq));
    const key = raw.endsWith('[]') ? raw.slice(0, -2) : raw;
    if (!found.includes(key) && foreignName(key) !== undefined) found.push(key);
  }
  return found;
}

/** Whether `name` is a foreign dialect's parameter that shapes a page (`_sort`, `_page`, `range`, ...). */
export function shapesPage(name: string): boolean {
  return Object.hasOwn(FOREIGN_NAMES, name) && FOREIGN_NAMES[name]?.page === true;
}

/**
 * Throws the 400 `foreign_dialect_parameter` of `parameter` (see {@link foreignParameters}): the
 * dialect that reads it, the option that turns it on, and the store's own form.
 */
export function failForeignParameter(parameter: string): never {
  const name = foreignName(parameter);
  if (name === undefined) throw new TypeError(`${parameter} is not a parameter of a foreign dialect`);
  const options = name.dialects
    .map((dialect) => `${DIALECT_NAMES[dialect]} (createStore({ dialects: { ${dialect}: true } }))`)
    .join(' or ');
  return fail(
    'foreign_dialect_parameter',
    parameter,
    `${parameter}: a parameter of the ${options} dialect, which this store does not read. ` +
      `Turn the dialect on with the dialects option, or write ${name.instead}. ` +
      `To filter on a field named "${parameter}", declare it in the resource's schema or write ${parameter}:eq=<value>.`,
  );
}
