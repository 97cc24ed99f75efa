/**
 * One update statement over an embedded collection, as MongoDB applies it: an operator update
 * or a replacement, on the first matching document or on every one (`multi`), inserting when
 * nothing matches and `upsert` is set. The front runs one command that writes at a time, so the
 * documents found first are the ones then changed.
 */
import type { Document, StoreCollection } from '@store/common';
import { serialize } from 'bson';
import { CommandError } from './errors';

const FAILED_TO_PARSE = 9;

/** What one statement did. */
export interface StatementOutcome {
  n: number;
  nModified: number;
  /** The `_id` of the document an upsert inserted. */
  upsertedId?: unknown;
}

/** True for a replacement document, false for an operator update; refuses pipelines and non-documents. */
function isReplacement(update: unknown): boolean {
  if (Array.isArray(update)) {
    throw new CommandError(FAILED_TO_PARSE, 'update pipelines are not supported by the wire front');
  }
  if (typeof update !== 'object' || update === null) {
    throw new CommandError(FAILED_TO_PARSE, 'the update must be an object');
  }
  return !Object.keys(update).some((key) => key.startsWith('$'));
}

/** `filter` narrowed to the document `_id` (positional `$` still sees the filter's own fields). */
export const pinned = (filter: Document, id: unknown): Document =>
  Object.hasOwn(filter, '_id') ? { $and: [filter, { _id: id }] } : { ...filter, _id: id };

const sameBson = (a: Document, b: Document): boolean =>
  Buffer.from(serialize(a)).equals(Buffer.from(serialize(b)));

/** Inserts the upsert of `filter` and `update`; returns the new document. */
export async function upsert(
  collection: StoreCollection,
  filter: Document,
  update: Document,
): Promise<Document> {
  const options = { upsert: true, returnDocument: 'after' } as const;
  const inserted = isReplacement(update)
    ? await collection.findOneAndReplace(filter, update, options)
    : await collection.findOneAndUpdate(filter, update, options);
  if (!inserted) throw new CommandError(1, 'the upsert inserted nothing');
  return inserted;
}

/** Changes the one document `target` (found by `filter`); its new version, and whether its stored bytes changed. */
export async function modifyOne(
  collection: StoreCollection,
  filter: Document,
  target: Document,
  update: Document,
): Promise<{ after: Document | null; modified: boolean }> {
  const options = { returnDocument: 'after' } as const;
  const after = isReplacement(update)
    ? await collection.findOneAndReplace(filter, update, options)
    : await collection.findOneAndUpdate(filter, update, options);
  return { after, modified: after !== null && !sameBson(target, after) };
}

/** Applies one statement `{ q, u, upsert, multi }`. */
export async function applyStatement(
  collection: StoreCollection,
  statement: Document,
): Promise<StatementOutcome> {
  const filter = (statement.q ?? {}) as Document;
  const update = statement.u as Document;
  const multi = statement.multi === true;
  if (multi && isReplacement(update)) {
    throw new CommandError(FAILED_TO_PARSE, 'multi update is not supported for replacement-style update');
  }
  const targets = await collection.find(filter, multi ? {} : { limit: 1 }).toArray();
  if (targets.length === 0) {
    if (statement.upsert === true)
      return { n: 1, nModified: 0, upsertedId: (await upsert(collection, filter, update))._id };
    // Checked as MongoDB checks it even when nothing matches.
    if (!isReplacement(update)) await collection.updateOne(filter, update);
    return { n: 0, nModified: 0 };
  }
  let nModified = 0;
  for (const target of targets) {
    const { modified } = await modifyOne(
      collection,
      multi ? pinned(filter, target._id) : filter,
      target,
      update,
    );
    if (modified) nModified += 1;
  }
  return { n: targets.length, nModified };
}
