/**
 * Document revisions: every write through the store stores a new token under
 * {@link REVISION_FIELD}, so a conditional write (`If-Match`) can make its check and its change
 * one atomic step: its filter names the revision it read, and a write that came in between makes
 * it match nothing.
 *
 * A token is random (12 bytes, base64url): it says nothing about when, in what order, or how many
 * writes happened, and it never appears in an answer. The field is hidden on every resource (no
 * answer carries it, no query filters on it) and only the store writes it; the `ETag` a reader
 * sees is a hash of the answer it receives, not this token. A document stored another way (by
 * the application's own code, or before this version) has none until its first write through
 * the store ({@link UNREVISED}): a conditional write then names its absence (`sameRevision`).
 */
import { randomFillSync } from 'node:crypto';
import type { Document } from '@store/common';

/** Where a document's revision is stored. */
export const REVISION_FIELD = '_store_rev';

/** Random bytes per token: 96 bits, so no two writes anywhere share one. */
const TOKEN_BYTES = 12;
/** Tokens drawn from the system's random source at once: one call per 256 writes, not per write. */
const POOL_BYTES = TOKEN_BYTES * 256;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let offset = POOL_BYTES;

/** A token for one write: 12 random bytes as base64url (16 characters), taken from a pooled buffer. */
export function newRevision(): string {
  if (offset + TOKEN_BYTES > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const token = pool.toString('base64url', offset, offset + TOKEN_BYTES);
  offset += TOKEN_BYTES;
  return token;
}

/** What {@link revisionOf} answers for a document stored without a revision (by other code). */
export const UNREVISED = '0';

/**
 * The revision of a stored document: its token, or {@link UNREVISED} when it has none. It stays
 * inside the store: a route hands it to the handler only to mark an answer about one document
 * (its `ETag` is then strong).
 */
export function revisionOf(document: Document): string {
  const stored = document[REVISION_FIELD];
  return typeof stored === 'string' ? stored : UNREVISED;
}

/**
 * The filter that matches `document` only while it still has the revision it was read with
 * (for a document stored without one: only while it still has none).
 */
export function sameRevision(document: Document): Document {
  const stored = document[REVISION_FIELD];
  return { _id: document._id, [REVISION_FIELD]: typeof stored === 'string' ? stored : null };
}

/** `document` as hooks see it: without the revision field (the store's own bookkeeping). */
export function withoutRevision(document: Document): Document {
  if (!Object.hasOwn(document, REVISION_FIELD)) return document;
  const { [REVISION_FIELD]: _revision, ...rest } = document;
  return rest;
}
