/**
 * The query parameters of the OpenAPI description, in one table: what each one does (the syntax
 * of docs/query-language.md, shortened) and which routes take it. The operators, coercions, geo
 * forms and bounds come from `@store/query`'s own tables (`QUERY_SYNTAX`). Field filters and `$$` flags
 * are free-form, so each is one `form`-exploded object parameter whose properties are the
 * parameters as sent (`views:gte=10`, `$$lang=fr`).
 */
import type { StoreDescription } from '@store/core';
import { QUERY_SYNTAX } from '@store/query';
import type { JsonObject } from './json-object';

/** Where a parameter applies: a list (and a nested list), a bulk `PATCH`/`DELETE`, `GET` of one, a write of one. */
export type ParameterUse = 'list' | 'bulk' | 'read' | 'write';

/** One query parameter: its name as sent, what it does, its JSON Schema, the routes that take it. */
export interface QueryParameterRow {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonObject;
  readonly on: readonly ParameterUse[];
  /** `form` (the default) or `deepObject`. */
  readonly style?: 'form' | 'deepObject';
}

const FILTERS: readonly ParameterUse[] = ['list', 'bulk', 'read', 'write'];
const LIST: readonly ParameterUse[] = ['list'];
const READS: readonly ParameterUse[] = ['list', 'read'];

const text = { type: 'string' } as const;
const texts = { type: 'array', items: text } as const;
const flag = { type: 'string', enum: ['1', '0', 'true', 'false'] } as const;
const oneOrMany = { anyOf: [text, texts] } as const;

const { operators, coercibleOperators, coercions, geoForms, rawOperators, limits } = QUERY_SYNTAX;
/** Words as code, space-separated: `eq ne gt`. */
const words = (list: readonly string[], prefix = '') => `\`${list.map((word) => prefix + word).join(' ')}\``;

const FILTER = [
  'Field filters, ANDed (each property is one parameter as sent).',
  '`field=value`: equality (a numeric-looking or `true`/`false` value also matches the number or boolean; repeated: any of them; `author.name=Ann` for a deep field).',
  `\`field:<op>=value\` with \`<op>\` one of ${words(operators)} (\`views:gte=10\`, \`tags:in[]=a&tags:in[]=b\`, \`title:contains=foo\`, case-insensitive and literal).`,
  `A coercion suffix ${words(coercions, ':')} compares a typed value, alone or after one of ${words(coercibleOperators)} (\`at:gte:date=2024-01-01\`, \`ref:id=<24 hex>\`, \`views:number=10\`).`,
  `Geo, on GeoJSON fields (\`[longitude, latitude]\`): \`field:geo:<form>=<JSON>\` with \`<form>\` one of ${words(geoForms)}: \`loc:geo:near=[lng,lat,min?,max?]\` (metres, nearest first; needs the field in \`resources.<name>.geo\`), \`loc:geo:ins:polygon=[[[...]]]\` (intersects), \`loc:geo:win:multipolygon=[...]\` (within).`,
  'A hidden field, a `$` segment or an unknown modifier is a 400 `invalid_query`.',
].join(' ');

/** Every query parameter of the store's routes; `$limit` shows the store's own limits. */
export function queryParameterTable(
  options: Pick<StoreDescription, 'defaultLimit' | 'maxLimit'> & Partial<Pick<StoreDescription, 'wireId'>>,
) {
  const id = options.wireId ?? '_id';
  return [
    {
      name: 'filter',
      description: FILTER,
      schema: { type: 'object', propertyNames: { pattern: '^[^$]' }, additionalProperties: oneOrMany },
      on: FILTERS,
    },
    {
      name: '$or',
      description: `OR groups: \`$or[<n>][<field>[:<op>[:<coerce>]]]=value\`. Each group is an AND of field filters, the groups are ORed, and the result is ANDed with every other filter (\`$or[0][name]=Ann&$or[1][age:gt]=30\`). At most ${limits.orGroups} groups; groups do not nest.`,
      schema: { type: 'object', additionalProperties: { type: 'object', additionalProperties: oneOrMany } },
      on: FILTERS,
      style: 'deepObject',
    },
    {
      name: '$query',
      description: `A filter object in JSON or relaxed Extended JSON (\`{"$or":[{"views":{"$gt":100}},{"featured":true}]}\`, \`{"at":{"$gte":{"$date":"2024-01-01T00:00:00Z"}}}\`), ANDed with the rest; repeatable. At most ${limits.rawQueryLength} characters and ${limits.rawQueryDepth} levels. Operators: ${words(rawOperators)}; any other is a 400 \`forbidden_operator\`.`,
      schema: { type: 'array', items: { type: 'string', contentMediaType: 'application/json' } },
      on: FILTERS,
    },
    {
      name: '$regex',
      description: `A regular expression on a field: \`["field","pattern"]\` (case-insensitive) or \`["field","pattern","flags"]\` with flags from \`imsx\` (\`""\`: case-sensitive); repeatable, ANDed. Patterns longer than ${limits.regexLength} characters or that cannot run in linear time (backreferences, lookarounds, nested quantifiers) are a 400 \`unsafe_regex\`.`,
      schema: { type: 'array', items: { type: 'string', contentMediaType: 'application/json' } },
      on: FILTERS,
    },
    {
      name: '$search',
      description: `Full-text search (1 to ${limits.textLength} characters) over the fields the resource lists in \`search\`; a 400 \`invalid_query\` on a resource without any, or with \`geo:near\`.`,
      schema: { type: 'string', minLength: 1, maxLength: limits.textLength },
      on: ['list', 'bulk'],
    },
    {
      name: '$select',
      description: `The fields to answer, comma-separated or repeated (\`$select=title,author.name\`); \`${id}\` only when listed. Excluding fields (\`-field\`) is a 400.`,
      schema: texts,
      on: READS,
    },
    {
      name: '$sort',
      description: `Sort keys, comma-separated or repeated; \`-field\` sorts descending (\`$sort=-views,title\`). \`${id}\` always breaks ties; at most ${limits.sortKeys - 1} keys besides it.`,
      schema: texts,
      on: LIST,
    },
    {
      name: '$order',
      description:
        '`asc` or `desc` for each `$sort` key, position by position (`$sort=views&$order=desc`); missing ones are `asc`.',
      schema: { type: 'array', items: { type: 'string', enum: ['asc', 'desc'] } },
      on: LIST,
    },
    {
      name: '$limit',
      description: `Documents per page: default ${options.defaultLimit}, above ${options.maxLimit} clamped to ${options.maxLimit}.`,
      schema: { type: 'integer', minimum: 1, default: options.defaultLimit },
      on: LIST,
    },
    {
      name: '$page',
      description: 'Zero-based page number: skips `$page * $limit` documents. Not with `$after`.',
      schema: { type: 'integer', minimum: 0 },
      on: LIST,
    },
    {
      name: '$after',
      description:
        'The opaque cursor of the `next` link of a full page: the documents after it, in the same `$sort`, never repeating or skipping one while others write. Not with `$page`; a cursor made for another sort is a 400 `invalid_cursor`.',
      schema: text,
      on: LIST,
    },
    {
      name: '$count',
      description:
        '`1`: the answer is `{ "count": n }` for the whole filter instead of a page (paging, sorting and `$select` are ignored).',
      schema: flag,
      on: LIST,
    },
    {
      name: '$total',
      description:
        '`1`: the page carries `X-Total-Count` (the whole filter) and a `Link` header with `first`, `prev`, `next` and `last`.',
      schema: flag,
      on: LIST,
    },
    {
      name: '$populate',
      description:
        'Attach the related documents that point at each document (`$populate=employees` adds the employees whose `company_id` or `company_ids` names it); comma-separated or repeated; a dotted path goes one level further (`employees.tasks`, at most 3 levels).',
      schema: texts,
      on: READS,
    },
    {
      name: '$fill',
      description:
        'Attach the documents each document points at (`$fill=companies` adds the companies its `company_id` or `company_ids` names); comma-separated or repeated; dotted paths as for `$populate`.',
      schema: texts,
      on: READS,
    },
    {
      name: 'flags',
      description:
        '`$$<name>=value` flags (each property is one parameter as sent): never a filter, they reach hooks and access functions as `ctx.flags`. `$$withDeleted=1` includes soft-deleted documents when the read rule allows it.',
      schema: { type: 'object', propertyNames: { pattern: '^\\$\\$.+' }, additionalProperties: oneOrMany },
      on: FILTERS,
    },
  ] as const satisfies readonly QueryParameterRow[];
}

/** The component key of a row (`$select` -> `select`): component names allow no `$`. */
export function parameterKey(row: Pick<QueryParameterRow, 'name'>): string {
  return row.name.replace(/^\$+/, '');
}

/**
 * The OpenAPI parameter object of a row. A free-form object starts empty (`example: {}`): tools
 * that fill in "try it" requests (Swagger UI) would otherwise send made-up filters.
 */
export function parameterObject(row: QueryParameterRow): JsonObject {
  const { name, description, schema, style = 'form' } = row;
  const empty = schema.type === 'object' ? { example: {} } : {};
  return { name, in: 'query', description, style, explode: true, schema, ...empty };
}
