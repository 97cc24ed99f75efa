/**
 * The resource paths of the OpenAPI description: `/<res>`, `/<res>/{id}` and
 * `/<res>/{id}/{children}` of every declared resource, and of `{resource}` (any undeclared one)
 * unless `restrict`.
 */
import { RESOURCE_NAME } from '@store/query';
import { findResource } from '../model/find-resource';
import type { ResolvedStoreOptions } from '../model/options';
import type { ResolvedResource } from '../model/resource';
import { collectionPath } from './collection-path';
import { childrenPath, documentPath } from './document-path';
import type { JsonObject } from './json-object';
import type { QueryParameterRow } from './query-parameters';
import type { ResourcePaths } from './resource-operation';
import { documentSchemaName, inputSchemaName, schemaRef } from './resource-schemas';

/** The tag of the undeclared resources' operations (no resource name holds a space). */
export const OTHER_RESOURCES = 'other resources';

const pathParameter = (name: string, description: string, schema: JsonObject) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});

const ID = pathParameter('id', 'The `_id`: a string, an integer or a 24-hex ObjectId, percent-encoded.', {
  type: 'string',
});
/** While the description is served, `/docs` is its reference page: no resource is reached there. */
const PAGE = 'docs';
const ANY_NAME = { type: 'string', pattern: RESOURCE_NAME.source, not: { const: PAGE } };
const RESOURCE = pathParameter(
  'resource',
  'Any other resource name: a collection is a resource the moment a request names it.',
  ANY_NAME,
);

/** The declared resources a request can reach (not those over a plugin's collections, nor `docs`). */
export function routableResources(options: ResolvedStoreOptions): ResolvedResource[] {
  const names = [...options.resources.keys()].filter((name) => name !== PAGE);
  return names.flatMap((name) => findResource(options, name) ?? []);
}

/** `/<res>`, `/<res>/{id}` and `/<res>/{id}/{children}` of one resource, present ones only. */
function pathsOf(paths: ResourcePaths, resource: JsonObject[], children: JsonObject): JsonObject {
  const base = `/${paths.segment}`;
  const items = {
    [base]: collectionPath(paths, resource),
    [`${base}/{id}`]: documentPath(paths, [...resource, ID]),
    [`${base}/{id}/{children}`]: childrenPath(paths, [...resource, ID, children]),
  };
  return Object.fromEntries(Object.entries(items).filter(([, item]) => item !== undefined));
}

/** Every resource path of the store; `schemes` are the session schemes, `rows` the query parameters. */
export function resourcePaths(
  options: ResolvedStoreOptions,
  schemes: readonly string[],
  rows: readonly QueryParameterRow[],
): JsonObject {
  const declared = routableResources(options);
  const common = { schemes, rows, maxBulk: options.maxBulk, realtime: options.realtime };
  const childNames = options.restrict ? { type: 'string', enum: declared.map((r) => r.name) } : ANY_NAME;
  const children = pathParameter(
    'children',
    'The related resource whose documents point at `{id}`.',
    childNames,
  );
  const described = declared.map((resource) =>
    pathsOf(
      {
        ...common,
        segment: resource.name,
        tag: resource.name,
        access: resource.access,
        input: schemaRef(inputSchemaName(resource.name)),
        document: schemaRef(documentSchemaName(resource.name)),
      },
      [],
      children,
    ),
  );
  if (options.restrict) return Object.assign({}, ...described);
  const undeclared = {
    ...common,
    segment: '{resource}',
    tag: OTHER_RESOURCES,
    access: options.defaultAccess,
    input: schemaRef('DocumentInput'),
    document: schemaRef('Document'),
  };
  return Object.assign({}, ...described, pathsOf(undeclared, [RESOURCE], children));
}
