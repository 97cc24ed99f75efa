/**
 * `/<res>` in the OpenAPI description: the list (with its change events), create one or many,
 * and the bulk `PATCH` and `DELETE` of every document a filter matches.
 */
import { CREATED_HEADERS, LIST_HEADERS } from './http-components';
import type { JsonObject } from './json-object';
import { json, pathItem, type ResourcePaths, resourceOperation } from './resource-operation';
import { schemaRef } from './resource-schemas';

/** What the list says of its change events (docs/realtime.md). */
const eventsDescription = (keepAliveSeconds: number, idKey: string) =>
  [
    'With `Accept: text/event-stream`, the answer is instead a Server-Sent Events stream of the changes to the documents the same filter matches (`$select` applies; paging, sorting and counting do not).',
    `Events \`created\` and \`updated\` carry the document as a read shows it, \`deleted\` carries \`{ "${idKey}" }\` (also when an update takes a document out of the filter), and each has an \`id:\`.`,
    'A reconnection with `Last-Event-ID` resumes from a bounded buffer, or gets a `reset` event; `dropped` comes last when the store ends a stream.',
    `A comment line every ${keepAliveSeconds} s keeps the connection open.`,
  ].join(' ');

/** The list's 200: a page (or `{ count }`), and the change events when realtime is on. */
function listAnswer(paths: ResourcePaths): JsonObject {
  const page = { type: 'array', items: { $ref: paths.document } };
  const events = {
    'text/event-stream': {
      schema: { type: 'string', description: 'Server-Sent Events: `event:`, `id:` and `data:` lines.' },
    },
  };
  return {
    description: 'A page of documents (`{ "count": n }` with `$count=1`).',
    headers: LIST_HEADERS,
    content: {
      ...json({ anyOf: [page, { $ref: schemaRef('Count') }] }),
      ...(paths.realtime === undefined ? {} : events),
    },
  };
}

function list(paths: ResourcePaths) {
  return resourceOperation(paths, 'read', {
    verb: 'list',
    summary: `List ${paths.segment}`,
    description: [
      'A page of documents, filtered, sorted and paged by the query language.',
      ...(paths.realtime === undefined
        ? []
        : [eventsDescription(paths.realtime.keepAliveSeconds, paths.idKey)]),
    ].join(' '),
    uses: 'list',
    headers: ['IfNoneMatch', ...(paths.realtime === undefined ? [] : ['LastEventId'])],
    responses: { 200: listAnswer(paths), 304: { $ref: '#/components/responses/NotModified' } },
    errors: [400],
  });
}

function create(paths: ResourcePaths) {
  const many = { type: 'array', items: { $ref: paths.input }, minItems: 1, maxItems: paths.maxBulk };
  return resourceOperation(paths, 'create', {
    verb: 'create',
    summary: `Create one document of ${paths.segment}, or many`,
    description: `A JSON object creates one document; an array of them (at most ${paths.maxBulk}) creates every item or none, answering the stored documents in order (no \`Location\`). Without \`${paths.idKey}\`, the store makes one.`,
    uses: 'write',
    requestBody: { required: true, content: json({ anyOf: [{ $ref: paths.input }, many] }) },
    responses: {
      201: {
        description: 'The stored document (or documents, in the order given).',
        headers: CREATED_HEADERS,
        content: json({
          anyOf: [{ $ref: paths.document }, { type: 'array', items: { $ref: paths.document } }],
        }),
      },
    },
    errors: [400, 409, 413, 415],
  });
}

function updateMatching(paths: ResourcePaths) {
  return resourceOperation(paths, 'update', {
    verb: 'updateMatching',
    summary: `Set fields on every document of ${paths.segment} a filter matches`,
    description: `Sets the body on every matching document. At least one filter is needed (\`?${paths.idKey}:exists=true\` for all); paging parameters are a 400. Not a transaction.`,
    uses: 'bulk',
    requestBody: { required: true, content: json({ $ref: paths.patch }) },
    responses: {
      200: { description: 'How many matched and changed.', content: json({ $ref: schemaRef('BulkUpdate') }) },
    },
    errors: [400, 413, 415],
  });
}

function deleteMatching(paths: ResourcePaths) {
  return resourceOperation(paths, 'delete', {
    verb: 'deleteMatching',
    summary: `Delete every document of ${paths.segment} a filter matches`,
    description: `At least one filter is needed (\`?${paths.idKey}:exists=true\` for all); paging parameters are a 400.`,
    uses: 'bulk',
    responses: {
      200: { description: 'How many were deleted.', content: json({ $ref: schemaRef('BulkDelete') }) },
    },
    errors: [400],
  });
}

/** The path item of `/<res>` (or `/{resource}`), `undefined` when every rule is `none`. */
export function collectionPath(paths: ResourcePaths, parameters: JsonObject[]) {
  return pathItem(parameters, {
    get: list(paths),
    post: create(paths),
    patch: updateMatching(paths),
    delete: deleteMatching(paths),
  });
}
