/**
 * The resource paths of the OpenAPI description: `/<res>`, `/<res>/{id}` and
 * `/<res>/{id}/{children}` of every declared resource, and of `{resource}` (any undeclared one)
 * unless `restrict`.
 */
import type { StoreDescription } from '@store/core';
import { isValidResourceName, RESOURCE_NAME } from '@store/query';
import { collectionPath } from './collection-path';
import { childrenPath, documentPath } from './document-path';
import type { JsonObject } from './json-object';
import type { QueryParameterRow } from './query-parameters';
import type { ResourcePaths } from './resource-operation';
import { documentSchemaName, inputSchemaName, patchSchemaName, schemaRef } from './resource-schemas';

/** The tag of the undeclared resources' operations (no resource name holds a space). */
export const OTHER_RESOURCES = 'other resources';

const pathParameter = (name: string, description: string, schema: JsonObject) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});

const idParameter = (idKey: string) =>
  pathParameter('id', `The \`${idKey}\`: a string, an integer or a 24-hex ObjectId, percent-encoded.`, {
    type: 'string',
  });

/**
 * Any resource name a request reaches: not the first segment of a plugin's route path (`docs`
 * while `/docs` is the reference page, `auth` under a sign-in plugin), which the plugin answers.
 */
function anyName(store: StoreDescription): JsonObject {
  const segments = store.plugins.flatMap((plugin) =>
    plugin.routePaths.map((path) => path.replace(/^\/+|\/+$/g, '').split('/')[0]),
  );
  const taken = [...new Set(segments.filter(isValidResourceName))].sort();
  const name = { type: 'string', pattern: RESOURCE_NAME.source };
  return taken.length === 0 ? name : { ...name, not: { enum: taken } };
}

/** `/<res>`, `/<res>/{id}` and `/<res>/{id}/{children}` of one resource, present ones only. */
function pathsOf(paths: ResourcePaths, resource: JsonObject[], children: JsonObject): JsonObject {
  const base = `/${paths.segment}`;
  const ID = idParameter(paths.idKey);
  const items = {
    [base]: collectionPath(paths, resource),
    [`${base}/{id}`]: documentPath(paths, [...resource, ID]),
    [`${base}/{id}/{children}`]: childrenPath(paths, [...resource, ID, children]),
  };
  return Object.fromEntries(Object.entries(items).filter(([, item]) => item !== undefined));
}

/** Every resource path of the store; `schemes` are the session schemes, `rows` the query parameters. */
export function resourcePaths(
  store: StoreDescription,
  schemes: readonly string[],
  rows: readonly QueryParameterRow[],
): JsonObject {
  const declared = store.resources;
  const common = {
    schemes,
    rows,
    maxBulk: store.maxBulk,
    realtime: store.realtime,
    idKey: store.wireId,
    deleteAnswersDocument: store.dialects.jsonServer || store.dialects.simpleRest,
  };
  const any = anyName(store);
  const childNames = store.restrict ? { type: 'string', enum: declared.map((r) => r.name) } : any;
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
        patch: schemaRef(patchSchemaName(resource.name)),
      },
      [],
      children,
    ),
  );
  if (store.otherResources === undefined) return Object.assign({}, ...described);
  const undeclared = {
    ...common,
    segment: '{resource}',
    tag: OTHER_RESOURCES,
    access: store.otherResources.access,
    input: schemaRef('DocumentInput'),
    document: schemaRef('Document'),
    patch: schemaRef('DottedPatch'),
  };
  const resource = pathParameter(
    'resource',
    'Any other resource name: a collection is a resource the moment a request names it.',
    any,
  );
  return Object.assign({}, ...described, pathsOf(undeclared, [resource], children));
}
