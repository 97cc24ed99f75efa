/**
 * The documents of a snapshot of version 2, which reads about three times faster than BSON: a
 * collection's documents go by batches, each one record (the usual framing and checksum) whose
 * payload is BSON documents back to back, so that any reader of BSON records reads it too:
 *
 *     { c: <collection>, docs: <count>, bson: <count> }   what the batch holds
 *     { json: "<JSON text>" }                             `{ "docs": [entries], "shapes": [columns] }`
 *     the `bson` documents, as BSON                       as in any record: a `{ pack }` or one each
 *
 * Each entry of `docs` stands for one document, in order: an object is the document itself; a
 * number `s >= 0` the next document of `shapes[s]` (documents of one shape as columns, see
 * doc-columns.ts); -1 the next of the BSON documents. A document goes as JSON only if JSON gives
 * it back exactly as a BSON round trip does (see json-exact.ts); any other (an ObjectId, a Date,
 * a Decimal128, a Long, a Binary, a regular expression, -0, NaN...) goes as BSON, so the
 * documents read are those of a version-1 snapshot, types included.
 */
import { type Document, literalKey, MAX_LITERAL_KEYS } from '@store/common';
import { BSON } from 'bson';
import { type Columns, ColumnsWriter, isColumns, type RowMakers } from './doc-columns';
import { exactInJson } from './json-exact';
import { encodeDocuments, frameRecord, splitDocuments } from './records';

/** A batch of one collection's documents, as read. */
export interface DocumentBatch {
  collection: string;
  docs: Document[];
}

/** The entry of a document stored as BSON. */
const IN_BSON = -1;

/** After the length of `{ json: text }`: the string type, the key `json` and its end. */
const JSON_HEAD = '\u0002json\u0000';
/** Where the text starts in `{ json: text }`: the document's length, JSON_HEAD, the string's length. */
const JSON_TEXT_AT = 4 + JSON_HEAD.length + 4;
/** The string's end, then the document's. */
const TWO_ZEROS = Buffer.from([0, 0]);

/** BSON of `{ json: text }`, written directly (the text may be past BSON's document size limit). */
function jsonDocument(text: string): Buffer {
  const utf8 = Buffer.from(text, 'utf8');
  const head = Buffer.alloc(JSON_TEXT_AT);
  head.writeInt32LE(JSON_TEXT_AT + utf8.length + 2, 0);
  head.write(JSON_HEAD, 4, 'latin1');
  head.writeInt32LE(utf8.length + 1, JSON_TEXT_AT - 4);
  return Buffer.concat([head, utf8, TWO_ZEROS]);
}

/** One record holding `docs` of `collection`. Throws a RangeError if their JSON text is too long for a string. */
function batchRecord(collection: string, docs: readonly Document[]): Buffer {
  const entries: Array<Document | number> = [];
  const columns = new ColumnsWriter();
  const bson: Document[] = [];
  for (const doc of docs) {
    if (!exactInJson(doc)) {
      entries.push(IN_BSON);
      bson.push(doc);
      continue;
    }
    const keys = Object.keys(doc);
    entries.push(keys.length <= MAX_LITERAL_KEYS && keys.every(literalKey) ? columns.add(doc, keys) : doc);
  }
  const text = JSON.stringify({ docs: entries, shapes: columns.shapes });
  const meta = BSON.serialize({ c: collection, docs: docs.length, bson: bson.length });
  const payload = [meta, jsonDocument(text)];
  if (bson.length > 0) payload.push(encodeDocuments(bson));
  return frameRecord(Buffer.concat(payload));
}

/**
 * The records of version 2 holding `docs` of `collection`, in order: one, or more if their JSON
 * text would be longer than a string can be.
 */
export function encodeDocumentBatch(collection: string, docs: readonly Document[]): Buffer[] {
  try {
    return [batchRecord(collection, docs)];
  } catch (error) {
    if (!(error instanceof RangeError) || docs.length < 2) throw error;
    const half = Math.ceil(docs.length / 2);
    return [
      ...encodeDocumentBatch(collection, docs.slice(0, half)),
      ...encodeDocumentBatch(collection, docs.slice(half)),
    ];
  }
}

/** The JSON text of the `{ json }` document at `at` in `payload`, and where it ends; undefined if it is not one. */
function jsonTextAt(payload: Buffer, at: number): { text: string; end: number } | undefined {
  if (payload.length - at < JSON_TEXT_AT + 2) return undefined;
  const size = payload.readInt32LE(at);
  const length = payload.readInt32LE(at + JSON_TEXT_AT - 4);
  const end = at + size;
  if (payload.toString('latin1', at + 4, at + 4 + JSON_HEAD.length) !== JSON_HEAD) return undefined;
  if (length < 1 || size !== JSON_TEXT_AT + length + 1 || end > payload.length) return undefined;
  if (payload[end - 2] !== 0 || payload[end - 1] !== 0) return undefined;
  return { text: payload.toString('utf8', at + JSON_TEXT_AT, end - 2), end };
}

function parsed(text: string): { docs: unknown[]; shapes: Columns[] } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const { docs, shapes } = body as { docs?: unknown; shapes?: unknown };
  if (!Array.isArray(docs) || !Array.isArray(shapes) || !shapes.every(isColumns)) return undefined;
  return { docs, shapes };
}

/**
 * The documents the entries of a batch stand for, in order (`docs` is filled in place);
 * undefined if an entry is not one, or if documents are left over.
 */
function documentsOf(
  docs: unknown[],
  shapes: Columns[],
  bson: Document[],
  makers: RowMakers,
): Document[] | undefined {
  const rows = shapes.map((columns) => makers.rowsOf(columns));
  const next = shapes.map(() => 0);
  let nextBson = 0;
  for (let i = 0; i < docs.length; i++) {
    const entry = docs[i];
    if (typeof entry === 'object') {
      if (entry === null || Array.isArray(entry)) return undefined;
    } else if (entry === IN_BSON) {
      if (nextBson === bson.length) return undefined;
      docs[i] = bson[nextBson++];
    } else {
      const s = entry as number;
      const shape = rows[s];
      if (!Number.isInteger(s) || !shape) return undefined;
      const at = next[s] as number;
      if (at >= shape.length) return undefined;
      next[s] = at + 1;
      docs[i] = shape[at];
    }
  }
  const whole = nextBson === bson.length && next.every((count, s) => count === shapes[s]?.n);
  return whole ? (docs as Document[]) : undefined;
}

/**
 * The batch a record of version 2 holds, given its first document (`meta`, `metaEnd` bytes
 * long), its documents of columns made by `makers` (one for all the records of a snapshot);
 * undefined if the record is not a whole batch.
 */
export function decodeDocumentBatch(
  payload: Buffer,
  meta: Document,
  metaEnd: number,
  makers: RowMakers,
): DocumentBatch | undefined {
  const { c: collection, docs: count, bson: inBson } = meta;
  if (typeof collection !== 'string') return undefined;
  const json = jsonTextAt(payload, metaEnd);
  const bson = json && (json.end === payload.length ? [] : splitDocuments(payload.subarray(json.end)));
  const body = json && parsed(json.text);
  if (!bson || !body || body.docs.length !== count || bson.length !== inBson) return undefined;
  const docs = documentsOf(body.docs, body.shapes, bson, makers);
  return docs && { collection, docs };
}

/** Whether `meta`, a record's first document, opens a batch of documents (see `decodeDocumentBatch`). */
export const isBatch = (meta: Document): boolean => 'docs' in meta && 'bson' in meta;
