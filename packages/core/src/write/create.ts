import type { Document } from '@store/common';
import { idToString, isStoreError } from '@store/common';
import { afterWritten } from '../hooks/hooks';
import { parseCreateBody } from '../http/parse-body';
import type { RequestContext, RouteResult } from '../model/context';
import { newRevision, REVISION_FIELD, revisionOf } from '../model/revision';
import { idForNewDocument } from './body-id';
import { createMany } from './bulk-create';
import { insertUnaliased } from './insert-unaliased';
import { newDocument, prepareNewDocument } from './new-document';
import { presentWritten } from './present-written';
import { stampCreated } from './timestamps';
import { bodyFromWire } from './wire-body';

/** `<baseUrl>/<res>/<id>`; without `baseUrl`, the mount path makes it right under `app.use('/api', ...)`. */
function location(ctx: RequestContext, id: unknown): string {
  const base = ctx.options.baseUrl ?? (ctx.request.mountPath ?? '').replace(/\/+$/, '');
  return `${base}/${encodeURIComponent(ctx.resource.name)}/${encodeURIComponent(idToString(id))}`;
}

/** Tries of a create whose `_id` the store makes, should a made id be taken (a guessed ObjectId posted earlier). */
const MADE_ID_TRIES = 3;

/** Stores `body` under its own `_id`, or under a new one the store makes (made again when taken). */
async function insertNew(ctx: RequestContext, body: Document): Promise<Document> {
  for (let attempt = 1; ; attempt++) {
    const _id = idForNewDocument(body._id, ctx.options.wireId);
    const document = stampCreated(ctx, newDocument(_id, body));
    document[REVISION_FIELD] = newRevision();
    try {
      await insertUnaliased(ctx.collection, document, body._id !== undefined, ctx.options.wireId);
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
 * (`7` and `"7"`, a 24-hex string and its ObjectId: see `insertUnaliased`). An array body is a
 * bulk create (`createMany`).
 */
export async function createDocument(ctx: RequestContext): Promise<RouteResult> {
  const parsed = bodyFromWire(ctx, await parseCreateBody(ctx.request, ctx.options.bodyLimit));
  if (Array.isArray(parsed))
    return createMany(
      ctx,
      parsed.map((item) => bodyFromWire(ctx, item)),
    );
  const document = await insertNew(ctx, await prepareNewDocument(ctx, parsed));
  await afterWritten(ctx, null, document);
  const headers = { location: location(ctx, document._id) };
  return { status: 201, data: await presentWritten(ctx, document), headers, revision: revisionOf(document) };
}
