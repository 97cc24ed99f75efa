/**
 * The foreign client dialects (the `dialects` option) where a query string is read: with one
 * on, the query is read through it (`translateDialects`) before the compiler, and every list
 * counts its total; with none on, a parameter named as in another dialect is refused with a hint
 * (`foreignParameters`), unless the resource declares a field of that name.
 */
import { singular } from '@store/populate';
import {
  type CompiledQuery,
  compileQuery,
  failForeignParameter,
  QueryError,
  type QueryOptions,
  translateDialects,
} from '@store/query';
import type { ExpandedParent, StoreQuery } from '../model/context';
import { findResource } from '../model/find-resource';
import type { StoreRequest } from '../model/http';
import type { ResolvedStoreOptions } from '../model/options';
import type { ResolvedResource } from '../model/resource';

function header(request: StoreRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether the `Range` header takes part in how `request`'s query string reads. */
export function readsRangeHeader(options: ResolvedStoreOptions, request: StoreRequest): string | undefined {
  return options.dialects.simpleRest ? header(request, 'range') : undefined;
}

/** Simple English plurals of a singular name, for the parent an `_expand=<singular>` names. */
const pluralGuesses = (name: string) => [
  `${name}s`,
  `${name}es`,
  ...(name.endsWith('y') ? [`${name.slice(0, -1)}ies`] : []),
  name,
];

/**
 * The parent resource whose singular is `name` (`post` -> `posts`): a declared resource first,
 * else a routable plural of it; `undefined` when none.
 */
function parentNamed(options: ResolvedStoreOptions, name: string): string | undefined {
  const overrides = options.populate.singular;
  for (const resource of options.resources.keys()) {
    if (singular(resource, overrides) === name && findResource(options, resource)) return resource;
  }
  return pluralGuesses(name).find(
    (candidate) => singular(candidate, overrides) === name && findResource(options, candidate) !== undefined,
  );
}

function unknownRelation(parameter: string, name: string, wanted: string): never {
  throw new QueryError(
    'invalid_query',
    parameter,
    `${parameter}: "${name}" names no ${wanted} of this store (a parent by its singular, such as post for posts; children by their resource name)`,
  );
}

interface Relations {
  populate: string[];
  fill: string[];
  expand: ExpandedParent[];
}

/**
 * `_embed` names (a resource: its documents as children; a singular: the parent, as one object)
 * and `_expand` names (the singular of a parent) as `$populate` / `$fill`.
 */
function dialectRelations(
  options: ResolvedStoreOptions,
  embed: readonly string[],
  expand: readonly string[],
): Relations {
  const out: Relations = { populate: [], fill: [], expand: [] };
  const addParent = (name: string, parameter: string) => {
    const parent = parentNamed(options, name) ?? unknownRelation(parameter, name, 'parent resource');
    if (!out.fill.includes(parent)) out.fill.push(parent);
    out.expand.push({ fill: parent, as: name });
  };
  for (const name of embed) {
    const children = singular(name, options.populate.singular) !== name && findResource(options, name);
    if (children) out.populate.push(name);
    else if (parentNamed(options, name) !== undefined) addParent(name, '_embed');
    else unknownRelation('_embed', name, 'resource');
  }
  for (const name of expand) addParent(name, '_expand');
  return out;
}

const union = (own: readonly string[], more: readonly string[]) => [
  ...own,
  ...more.filter((name) => !own.includes(name)),
];

/**
 * The query string of `request` read through the dialects that are on: translated, compiled with
 * the store's limits (the whole list, up to `maxLimit`, when it names no paging), its offset,
 * relations and total applied, and what the answer needs kept as `dialect`.
 */
export function compileDialectQuery(
  request: StoreRequest,
  options: ResolvedStoreOptions,
  limits: QueryOptions,
): StoreQuery {
  const dialect = translateDialects(request.rawQuery, options.dialects, {
    range: readsRangeHeader(options, request),
  });
  const compiled: CompiledQuery = compileQuery(
    dialect.query,
    dialect.whole ? { ...limits, defaultLimit: options.maxLimit } : limits,
  );
  const relations = dialectRelations(options, dialect.embed, dialect.expand);
  return {
    ...compiled,
    skip: dialect.skip ?? compiled.skip,
    total: true,
    populate: union(compiled.populate, relations.populate),
    fill: union(compiled.fill, relations.fill),
    dialect: {
      search: dialect.search,
      envelope: dialect.envelope,
      paging: dialect.paging,
      expand: relations.expand,
    },
  };
}

const declaredFields = new WeakMap<ResolvedResource, ReadonlySet<string>>();

/** The fields a resource declares: its schema's properties, searchable, geo, indexed, hidden and protected fields. */
function fieldsOf(resource: ResolvedResource): ReadonlySet<string> {
  let fields = declaredFields.get(resource);
  if (fields === undefined) {
    const properties = resource.schema?.properties;
    fields = new Set([
      ...(properties !== null && typeof properties === 'object' ? Object.keys(properties) : []),
      ...resource.search,
      ...resource.geo,
      ...resource.indexes,
      ...resource.hidden,
      ...resource.protected,
    ]);
    declaredFields.set(resource, fields);
  }
  return fields;
}

/**
 * Refuses (400 `foreign_dialect_parameter`) the first of `parameters` (names of another
 * dialect's parameters in a query of the store's own) that `resource` declares no field of.
 */
export function checkForeignParameters(parameters: readonly string[], resource: ResolvedResource): void {
  const declared = fieldsOf(resource);
  for (const parameter of parameters) {
    if (!declared.has(parameter)) failForeignParameter(parameter);
  }
}
