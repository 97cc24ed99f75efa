import type { Document } from '@store/common';
import { idToString, isStoreError } from '@store/common';
import { bindNewDocument } from '../access/writes';
import { afterWritten, applyBeforeWrite } from '../hooks/hooks';
import { parseJsonBody } from '../http/parse-body';
import type { RequestContext, RouteResult } from '../model/context';
import { idForNewDocument } from './body-id';
import { checkGeoFields } from './geo-fields';
import { insertUnaliased } from './insert-unaliased';
import { presentWritten } from './present-written';
import { newRevision, REVISION_FIELD, revisionOf } from './revision';
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

/** Tries of a create whose `_id` the store makes, should a made id be taken (a guessed ObjectId posted earlier). */
const MADE_ID_TRIES = 3;

/** Stores `body` under its own `_id`, or under a new one the store makes (made again when taken). */
async function insertNew(ctx: RequestContext, body: Document): Promise<Document> {
  for (let attempt = 1; ; attempt++) {
    const _id = idForNewDocument(body._id);
    const document = stampCreated(ctx, newDocument(_id, body));
    document[REVISION_FIELD] = newRevision();
    try {
      await insertUnaliased(ctx.collection, document, body._id !== undefined);
      return document;
    } catch (error) {
      const taken = isStoreError(error)
        ? error.code === 'conflict'
        : (error as { code?: unknown })?.code === 11000;
      if (body._id !== undefined || !taken || attempt >= MADE_ID_TRIES) throw error;
    }
  }
}

/**
 * `POST /<res>`: stores the body (after `beforeWrite`, with the owner set under `"owner"`) as a
 * new document; 201 with it and its `Location`; 409 when the `_id` is taken, also in another form
 * (`7` and `"7"`, a 24-hex string and its ObjectId: see `insertUnaliased`).
 */
export async function createDocument(ctx: RequestContext): Promise<RouteResult> {
  const parsed = await parseJsonBody(ctx.request, ctx.options.bodyLimit);
  const body = bindNewDocument(ctx, await applyBeforeWrite(ctx, parsed, null));
  validateBody(ctx, body);
  checkGeoFields(ctx, body);
  const document = await insertNew(ctx, body);
  await afterWritten(ctx, null, document);
  const headers = { location: location(ctx, document._id) };
  return { status: 201, data: await presentWritten(ctx, document), headers, revision: revisionOf(document) };
}
