/**
 * `POST /<res>` with a JSON array: creates every item or none. Each item
 * goes through what a single create does (body rules, `beforeWrite`, the owner, `schema`, geo
 * fields) before anything is stored, and a bad one answers its error naming its index; ids
 * taken by a stored document or by another item (aliases included: `7` and `"7"`) are a 409
 * naming the index. Then all are inserted at once; should the database still refuse one (a
 * create that raced this one), those inserted before it are deleted again and the answer is the
 * refused item's 409.
 */
import { aliasFilter, type Document, idToString } from '@store/common';
import { afterWritten } from '../hooks/hooks';
import { sanitizeDocument } from '../http/body-rules';
import type { RequestContext, RouteResult } from '../model/context';
import { storeError } from '../model/error-codes';
import { newRevision, REVISION_FIELD } from '../model/revision';
import { withoutBudgets } from '../read/request-budgets';
import { idForNewDocument } from './body-id';
import { forItem, itemError } from './bulk-scope';
import { newDocument, prepareNewDocument } from './new-document';
import { presentWritten } from './present-written';
import { stampCreated } from './timestamps';

/** The path segment an `_id` answers to: a 24-hex id in any letter case is one with its ObjectId. */
function pathKey(id: unknown): string {
  const text = idToString(id);
  return /^[0-9a-f]{24}$/i.test(text) ? text.toLowerCase() : text;
}

function taken(index: number, why: string) {
  return itemError(index, storeError('conflict', why));
}

/** 409 for the first item whose `_id` another item, or a stored document, already answers to. */
async function checkIdsFree(ctx: RequestContext, documents: Document[], given: boolean[]): Promise<void> {
  const indexOf = new Map<string, number>();
  const lookups: Document[] = [];
  documents.forEach((document, index) => {
    const key = pathKey(document._id);
    const earlier = indexOf.get(key);
    if (earlier !== undefined)
      throw taken(
        index,
        `its ${ctx.options.wireId} is the same as item ${earlier}'s (7 and "7", a hex string and its ObjectId, are one id).`,
      );
    indexOf.set(key, index);
    if (!given[index]) return;
    lookups.push({ _id: document._id });
    const aliases = aliasFilter(document._id);
    if (aliases !== null) lookups.push(aliases);
  });
  if (lookups.length === 0) return;
  const stored = await ctx.collection.find({ $or: lookups }, { projection: { _id: 1 }, limit: 1 }).toArray();
  const [first] = stored;
  if (first === undefined) return;
  const index = indexOf.get(pathKey(first._id)) ?? 0;
  throw taken(
    index,
    `a document with the same ${ctx.options.wireId} already exists (7 and "7", or a hex string and its ObjectId, are the same id).`,
  );
}

/** The index of the item a failed `insertMany` stopped at (both engines report `writeErrors`). */
function failedIndex(error: unknown): number | undefined {
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  const first = Array.isArray(writeErrors) ? writeErrors[0] : writeErrors;
  const index = (first as { index?: unknown } | undefined)?.index;
  return typeof index === 'number' ? index : undefined;
}

/** Inserts all of `documents`, or (deleting the ones inserted before a refused one) none. */
async function insertAll(ctx: RequestContext, documents: Document[]): Promise<void> {
  try {
    await ctx.collection.insertMany(documents);
  } catch (error) {
    const index = failedIndex(error);
    // Only this request's documents: each carries its own revision, so a document another
    // request stored under one of these ids meanwhile is never withdrawn.
    const inserted = documents.slice(0, index ?? documents.length);
    const ours = {
      _id: { $in: inserted.map((document) => document._id) },
      [REVISION_FIELD]: { $in: inserted.map((document) => document[REVISION_FIELD]) },
    };
    // Whatever the request's budgets left: all or none must hold.
    await withoutBudgets(ctx.collection)
      .deleteMany(ours)
      .catch((cause: unknown) => {
        ctx.options.logger.error(
          `[@store/core] a bulk create on "${ctx.resource.name}" failed and ${inserted.length} of its documents could not be withdrawn`,
          cause,
        );
      });
    const duplicate = (error as { code?: unknown } | null)?.code === 11000;
    if (duplicate && index !== undefined) {
      throw taken(index, `its ${ctx.options.wireId} or a unique field is taken.`);
    }
    throw error;
  }
}

/** `POST /<res>` with an array body: 201 with the created documents, in the order given. */
export async function createMany(ctx: RequestContext, items: unknown[]): Promise<RouteResult> {
  const { maxBulk } = ctx.options;
  if (items.length === 0) throw storeError('invalid_body', 'The array is empty; send at least one document.');
  if (items.length > maxBulk) {
    throw storeError(
      'too_many_items',
      `The array holds ${items.length} documents; at most ${maxBulk} (maxBulk) are created in one request.`,
    );
  }
  const documents: Document[] = [];
  const given: boolean[] = [];
  for (const [index, item] of items.entries()) {
    const body = await forItem(index, () => prepareNewDocument(ctx, sanitizeDocument(item)));
    const _id = await forItem(index, () => idForNewDocument(body._id, ctx.options.wireId));
    const document = stampCreated(ctx, newDocument(_id, body));
    document[REVISION_FIELD] = newRevision();
    documents.push(document);
    given.push(body._id !== undefined);
  }
  await checkIdsFree(ctx, documents, given);
  await insertAll(ctx, documents);
  for (const document of documents) await afterWritten(ctx, null, document);
  const data = [];
  for (const document of documents) data.push(await presentWritten(ctx, document));
  return { status: 201, data };
}
