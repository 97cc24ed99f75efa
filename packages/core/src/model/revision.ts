/**
 * Document revisions: every write through the store stores a new token under
 * {@link REVISION_FIELD}, so a document's `ETag` changes with every write and a conditional
 * write (`If-Match`) can make its check and its change one atomic step: its filter names the
 * revision it read, and a write that came in between makes it match nothing.
 *
 * The field is hidden on every resource (no answer carries it, no query filters on it) and
 * only the store writes it. A document stored another way (by the application's own code, or
 * before this version) has none until its first write through the store (see `UNREVISED`).
 */
import { randomBytes } from 'node:crypto';
import type { Document } from '@store/common';

/** Where a document's revision is stored. */
export const REVISION_FIELD = '_store_rev';

/** Unique per process (random) and per write in it (a counter): no two writes anywhere share a token. */
const processPrefix = randomBytes(6).toString('base64url');
let counter = 0;

/** A token for one write; cheap (no random bytes per write). */
export function newRevision(): string {
  counter += 1;
  return `${processPrefix}${counter.toString(36)}`;
}

/**
 * The revision part of the `ETag` of a document stored without a revision (by other code): its
 * tag then stands for the answer alone (its hash part), and `If-Match` compares that.
 */
export const UNREVISED = '0';

/** The revision of a stored document: its token, or {@link UNREVISED} when it has none. */
export function revisionOf(document: Document): string {
  const stored = document[REVISION_FIELD];
  return typeof stored === 'string' ? stored : UNREVISED;
}

/** The filter that matches `document` only while it still has the revision it was read with. */
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
