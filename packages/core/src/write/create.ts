import type { Document } from '@store/common';
import { idToString } from '@store/common';
import { bindNewDocument } from '../access/writes';
import { applyBeforeWrite } from '../hooks/hooks';
import { parseJsonBody } from '../http/parse-body';
import type { RequestContext, RouteResult } from '../model/context';
import { presentOne } from '../read/present';
import { idForNewDocument } from './body-id';
import { checkGeoFields } from './geo-fields';
import { stampCreated } from './timestamps';
import { validateBody } from './validate-body';

/** `<baseUrl>/<res>/<id>`; without `baseUrl`, the mount path makes it right under `app.use('/api', ...)`. */
function location(ctx: RequestContext, id: unknown): string {
  const base = ctx.options.baseUrl ?? (ctx.request.mountPath ?? '').replace(/\/+$/, '');
  return `${base}/${encodeURIComponent(ctx.resource.name)}/${encodeURIComponent(idToString(id))}`;
}

/**
 * The document to store: `_id` first, then the checked body. A plain literal, not a
 * prototype-free object: V8 keeps those in dictionary mode, slower to serialize to BSON and
 * JSON. Still safe: spreading defines own properties (a `__proto__` key, which the body rules
 * refuse anyway, could not set a prototype), and nothing reads it by a caller's key after this.
 */
function newDocument(_id: unknown, body: Document): Document {
  const document: Document = { _id, ...body };
  document._id = _id;
  return document;
}

/**
 * `POST /<res>`: stores the body (after `beforeWrite`, with the owner set under `"owner"`) as a
 * new document; 201 with it and its `Location`; 409 when the `_id` is taken.
 */
export async function createDocument(ctx: RequestContext): Promise<RouteResult> {
  const parsed = await parseJsonBody(ctx.request, ctx.options.bodyLimit);
  const body = bindNewDocument(ctx, await applyBeforeWrite(ctx, parsed, null));
  validateBody(ctx, body);
  checkGeoFields(ctx, body);
  const _id = idForNewDocument(body._id);
  const document = stampCreated(ctx, newDocument(_id, body));
  await ctx.collection.insertOne(document);
  return { status: 201, data: await presentOne(ctx, document), headers: { location: location(ctx, _id) } };
}
