/** What a create stores: the checked body of one new document, and the document made of it. */
import type { Document } from '@store/common';
import { bindNewDocument } from '../access/writes';
import { applyBeforeWrite } from '../hooks/hooks';
import type { RequestContext } from '../model/context';
import { checkGeoFields } from './geo-fields';
import { validateBody } from './validate-body';

/**
 * The body a create stores, from the parsed one: after `beforeWrite`, with the values the grant
 * binds (the owner), checked against `schema` and as GeoJSON on the geo fields.
 */
export async function prepareNewDocument(ctx: RequestContext, parsed: Document): Promise<Document> {
  const body = bindNewDocument(ctx, await applyBeforeWrite(ctx, parsed, null));
  validateBody(ctx, body);
  checkGeoFields(ctx, body);
  return body;
}

/**
 * The document to store: `_id` first, then the checked body. A plain literal, not a
 * prototype-free object: V8 keeps those in dictionary mode, slower to serialize to BSON and
 * JSON. Still safe: spreading defines own properties (a `__proto__` key, which the body rules
 * refuse anyway, could not set a prototype), and nothing reads it by a caller's key after this.
 */
export function newDocument(_id: unknown, body: Document): Document {
  const document: Document = { _id, ...body };
  document._id = _id;
  return document;
}
