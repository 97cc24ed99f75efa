import { idCandidates, newId, sameId } from '@store/common';
import { ObjectId } from 'bson';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';

/**
 * The `_id` of a posted document: the body's, kept as given when it is a non-empty string,
 * a safe integer or an ObjectId (`{"$oid": ...}`), so a path can address it; otherwise a
 * new ObjectId's 24-hex string. `wireId` is the name the client gave it (`id` under
 * `wireId: 'id'`), for the message.
 */
export function idForNewDocument(bodyId: unknown, wireId = '_id'): unknown {
  if (bodyId === undefined) return newId();
  const addressable =
    (typeof bodyId === 'string' && bodyId.length > 0 && bodyId.length <= 1024) ||
    Number.isSafeInteger(bodyId) ||
    bodyId instanceof ObjectId;
  if (!addressable) {
    throw storeError(
      'invalid_body',
      `body.${wireId}: expected a non-empty string, an integer or {"$oid": ...}.`,
    );
  }
  return bodyId;
}

/** Checks a body `_id` on PUT / PATCH names the document of the path (it can never change). */
export function checkBodyIdMatchesPath(ctx: RequestContext, bodyId: unknown): void {
  if (bodyId === undefined) return;
  const segment = ctx.route.id as string;
  if (!idCandidates(segment).some((candidate) => sameId(candidate, bodyId))) {
    const name = ctx.options.wireId;
    throw storeError(
      'invalid_body',
      `body.${name}: differs from the id in the path; an ${name} cannot change.`,
    );
  }
}
