/**
 * The shared HTTP parts of the OpenAPI description: response headers (`ETag`, `Location`, paging)
 * and the conditional request headers (`If-None-Match`, `If-Match`), referenced by every resource's paths.
 */
import type { JsonObject } from './json-object';

const header = (description: string, schema: JsonObject = { type: 'string' }) => ({ description, schema });

export const HEADERS: JsonObject = {
  ETag: header(
    'A hash of the answer the caller receives: strong (`"<hash>"`) for one document, weak (`W/"<hash>"`) for a list. Send it back in `If-None-Match` (304 when unchanged) or, for one document, in `If-Match` (a write only if the caller would still see the same document).',
  ),
  Location: header('The new document (not on a bulk create): `<baseUrl or mount path>/<resource>/<id>`.'),
  XTotalCount: header('With `$total=1`: how many documents the whole filter matches.', {
    type: 'integer',
    minimum: 0,
  }),
  Link: header(
    'RFC 8288 paging links: `next` (the `$after` cursor of a full page), and with `$total=1` also `first`, `prev` and `last`.',
  ),
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The headers of a list answer. */
export const LIST_HEADERS = {
  ETag: headerRef('ETag'),
  'X-Total-Count': headerRef('XTotalCount'),
  Link: headerRef('Link'),
};

/** The header of an answer about one document. */
export const DOCUMENT_HEADERS = { ETag: headerRef('ETag') };

/** The headers of a 201 of one document. */
export const CREATED_HEADERS = { Location: headerRef('Location'), ETag: headerRef('ETag') };

export const HEADER_PARAMETERS: JsonObject = {
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description: 'An `ETag` of an earlier answer (or `*`): 304 without a body when it is still current.',
    schema: { type: 'string' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    description:
      'Lost-update protection: the write happens only if the document, as the caller would see it, still has one of these tags (or `*`: any); else 412 and nothing changes.',
    schema: { type: 'string' },
  },
  LastEventId: {
    name: 'Last-Event-ID',
    in: 'header',
    description: 'Change events: the `id:` of the last event received, to resume after a reconnection.',
    schema: { type: 'string' },
  },
};

export const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** `components.responses.NotModified`, for the `GET` routes. */
export const NOT_MODIFIED: JsonObject = {
  description: 'Not Modified: `If-None-Match` names the current `ETag`.',
  headers: DOCUMENT_HEADERS,
};
