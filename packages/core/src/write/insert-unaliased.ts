import type { Document, StoreCollection } from '@store/common';
import { aliasFilter } from '@store/common';
import type { WireId } from '../model/config';
import { storeError } from '../model/error-codes';

/** The 409 of a taken id, naming the key as the wire shows it. */
function taken(wireId: WireId) {
  return storeError(
    'conflict',
    `A document with the same ${wireId} already exists (7 and "7", or a hex string and its ObjectId, are the same id).`,
  );
}

/**
 * Inserts `document` unless its `_id` aliases a stored one (`7` and `"7"`, a 24-hex string and
 * its ObjectId: one URL names both), 409 `conflict` then; the unique `_id` index answers the
 * exact duplicate (11000, also a 409).
 *
 * Safe under concurrency on both engines without a transaction: look, insert, then look again,
 * and withdraw the insert when an alias appeared meanwhile. Of two racing creates, each one's
 * second look comes after its own insert, so at least one of them sees the other: at most one
 * answers 201 (under an exact race both may answer 409; a retry then succeeds). The first look
 * only spares the common sequential case a withdrawn insert: `lookFirst: false` skips it for an
 * id the store made, which is almost never taken. `wireId` names the key in the 409's message.
 */
export async function insertUnaliased(
  collection: StoreCollection,
  document: Document,
  lookFirst: boolean,
  wireId: WireId,
): Promise<void> {
  const aliases = aliasFilter(document._id);
  if (aliases === null) {
    await collection.insertOne(document);
    return;
  }
  if (lookFirst && (await collection.findOne(aliases, { projection: { _id: 1 } })) !== null) {
    throw taken(wireId);
  }
  await collection.insertOne(document);
  if ((await collection.findOne(aliases, { projection: { _id: 1 } })) === null) return;
  await collection.deleteOne({ _id: document._id });
  throw taken(wireId);
}
