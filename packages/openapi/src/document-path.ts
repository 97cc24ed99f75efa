/**
 * `/<res>/{id}` and `/<res>/{id}/{children}` in the OpenAPI description: read, replace, patch
 * (dotted `$set` or JSON Merge Patch) and delete one document, with `ETag`s; the nested list.
 */
import { DOCUMENT_HEADERS, LIST_HEADERS } from './http-components';
import type { JsonObject } from './json-object';
import { json, pathItem, type ResourcePaths, resourceOperation } from './resource-operation';
import { schemaRef } from './resource-schemas';

const ANSWERED = (paths: ResourcePaths, description: string) => ({
  description,
  headers: DOCUMENT_HEADERS,
  content: json({ $ref: paths.document }),
});

const NOT_MODIFIED = { $ref: '#/components/responses/NotModified' };

function read(paths: ResourcePaths) {
  return resourceOperation(paths, 'read', {
    verb: 'get',
    summary: `Read one document of ${paths.segment}`,
    description: 'Filters in the query are ANDed with the id (a document that does not match them is a 404).',
    uses: 'read',
    headers: ['IfNoneMatch'],
    responses: { 200: ANSWERED(paths, 'The document.'), 304: NOT_MODIFIED },
    errors: [400, 404],
  });
}

function replace(paths: ResourcePaths) {
  return resourceOperation(paths, 'update', {
    verb: 'replace',
    summary: `Replace one document of ${paths.segment}`,
    description: `Stores the body in place of the document, keeping its \`${paths.idKey}\` (a different one in the body is a 400).`,
    uses: 'write',
    headers: ['IfMatch'],
    requestBody: { required: true, content: json({ $ref: paths.input }) },
    responses: { 200: ANSWERED(paths, 'The new document.') },
    errors: [400, 404, 412, 413, 415],
  });
}

function patch(paths: ResourcePaths) {
  return resourceOperation(paths, 'update', {
    verb: 'patch',
    summary: `Change fields of one document of ${paths.segment}`,
    description:
      '`application/json`: the keys (dotted paths allowed) are set. `application/merge-patch+json`: a JSON Merge Patch (RFC 7396). An empty JSON body is a 400.',
    uses: 'write',
    headers: ['IfMatch'],
    requestBody: {
      required: true,
      content: {
        ...json({ $ref: paths.patch }),
        'application/merge-patch+json': { schema: { $ref: schemaRef('MergePatch') } },
      },
    },
    responses: { 200: ANSWERED(paths, 'The updated document.') },
    errors: [400, 404, 412, 413, 415],
  });
}

function remove(paths: ResourcePaths) {
  return resourceOperation(paths, 'delete', {
    verb: 'delete',
    summary: `Delete one document of ${paths.segment}`,
    description: 'Under `softDelete`, sets `deletedAt` instead, and reads leave the document out.',
    uses: 'write',
    headers: ['IfMatch'],
    responses: paths.deleteAnswersDocument
      ? { 200: { description: 'Deleted: the document as it was.', content: json({ $ref: paths.document }) } }
      : { 204: { description: 'Deleted.' } },
    errors: [400, 404, 412],
  });
}

/** The path item of `/<res>/{id}`, `undefined` when every rule is `none`. */
export function documentPath(paths: ResourcePaths, parameters: JsonObject[]) {
  return pathItem(parameters, {
    get: read(paths),
    put: replace(paths),
    patch: patch(paths),
    delete: remove(paths),
  });
}

/** The path item of `/<res>/{id}/{children}`: the documents of `<children>` that point at `{id}`. */
export function childrenPath(paths: ResourcePaths, parameters: JsonObject[]) {
  const list = resourceOperation(paths, 'read', {
    verb: 'listChildren',
    summary: `List the documents that point at one document of ${paths.segment}`,
    description: `The documents of \`{children}\` whose \`<singular>_id\` is \`{id}\` or whose \`<singular>_ids\` holds it${paths.deleteAnswersDocument ? ' (or `<singular>Id`, `<singular>Ids`)' : ''}, under the whole query language; the read rule of \`{children}\` applies too. The parent need not exist: no children is \`[]\`.`,
    uses: 'list',
    headers: ['IfNoneMatch'],
    responses: {
      200: {
        description: 'A page of the children (`{ "count": n }` with `$count=1`).',
        headers: LIST_HEADERS,
        content: json({
          anyOf: [{ type: 'array', items: { $ref: schemaRef('Document') } }, { $ref: schemaRef('Count') }],
        }),
      },
      304: NOT_MODIFIED,
    },
    errors: [400, 404],
  });
  return pathItem(parameters, { get: list });
}
