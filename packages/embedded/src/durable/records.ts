/**
 * The on-disk record format shared by the journal and the snapshot. A record is
 *
 *     u32 LE payload length | u32 LE CRC-32 of the payload | payload
 *
 * and its payload is one or more BSON documents back to back (each starts with its own length):
 * a change, or `{ pack: [changes] }`. A record carries the changes of one operation whatever
 * their number (of one slice, for an updateMany or deleteMany that runs in several), and values
 * keep their BSON types (ObjectId, Date, Decimal128, Long, Binary,
 * regular expressions). A snapshot of version 2 carries most of its documents as JSON text in
 * such a document (see snapshot-body.ts).
 */
import { crc32 } from 'node:zlib';
import type { Document, IndexOptions, IndexSpec } from '@store/common';
import { BSON } from 'bson';

const HEADER_BYTES = 8;

/** One change, as the journal stores it (one BSON document each). */
export type Change =
  /** The whole document after an insert, replace or update (`c`: collection). */
  | { c: string; put: Document }
  /** The `_id` of a removed document. */
  | { c: string; remove: unknown }
  /** An index created (its name, key specification and options). */
  | { c: string; index: { name: string; spec: IndexSpec; options: IndexOptions } }
  /** An index dropped, by name. */
  | { c: string; dropIndex: string }
  /** The collection renamed: `renameTo` takes its documents and indexes, whatever it held before. */
  | { c: string; renameTo: string }
  /** The collection dropped, documents and indexes. */
  | { c: string; drop: true };

/**
 * BSON for `docs`: one `{ pack: [...] }` document when there are several (one deserialization
 * for them all reads much faster), or one document each when the pack is too large for BSON.
 */
function serialized(docs: readonly Document[]): Uint8Array[] {
  if (docs.length > 1) {
    try {
      return [BSON.serialize({ pack: docs }, { ignoreUndefined: false })];
    } catch {
      // Past BSON's size limit together: one document each.
    }
  }
  return docs.map((doc) => BSON.serialize(doc, { ignoreUndefined: false }));
}

/** `docs` as BSON back to back: a record's payload (see `encodeRecord`), or a part of one. */
export function encodeDocuments(docs: readonly Document[]): Buffer {
  return Buffer.concat(serialized(docs));
}

/** Frames `payload` as one record: its length and checksum, then itself. */
export function frameRecord(payload: Uint8Array): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}

/** Frames `docs` as one record. */
export function encodeRecord(docs: readonly Document[]): Buffer {
  return frameRecord(encodeDocuments(docs));
}

/** Why reading stopped before the end of a file. */
export interface Damage {
  /** Byte offset of the first record that could not be read. */
  offset: number;
  reason: string;
}

/** Takes each record's documents as it is read (a change each), in order. */
export type RecordVisitor = (docs: Document[]) => void;

/**
 * Takes each record's payload once its length and checksum are checked, in order, and answers
 * why its contents cannot be read, if they cannot (the record then counts as damaged).
 */
export type PayloadVisitor = (payload: Buffer) => string | undefined;

/**
 * Hands the payloads of the records of `bytes` from `from` to `visit` in order, each as soon as
 * it is read and checked, and answers where reading stopped: the end, or the first damaged
 * record (framing, checksum, or contents `visit` could not read).
 */
export function readPayloads(
  bytes: Buffer,
  visit: PayloadVisitor,
  from = 0,
): { end: number; damage?: Damage } {
  let offset = from;
  while (offset < bytes.length) {
    const damage = (reason: string) => ({ end: offset, damage: { offset, reason } });
    if (bytes.length - offset < HEADER_BYTES) return damage('a record header cut short');
    const length = bytes.readUInt32LE(offset);
    const checksum = bytes.readUInt32LE(offset + 4);
    const start = offset + HEADER_BYTES;
    if (length === 0 || start + length > bytes.length) return damage('a record cut short');
    const payload = bytes.subarray(start, start + length);
    if (crc32(payload) !== checksum) return damage('a record whose checksum does not match');
    const unreadable = visit(payload);
    if (unreadable !== undefined) return damage(unreadable);
    offset = start + length;
  }
  return { end: offset };
}

/** Why a record whose payload is not BSON documents back to back cannot be read. */
export const NOT_BSON = 'a record whose contents are not BSON';

/**
 * Hands the records of `bytes` from `from` to `visit` in order, each as soon as it is read and
 * checked (so its documents need not all be held at once), and answers where reading stopped:
 * the end, or the first damaged record.
 */
function readRecords(bytes: Buffer, visit: RecordVisitor, from = 0): { end: number; damage?: Damage } {
  return readPayloads(
    bytes,
    (payload) => {
      const docs = splitDocuments(payload);
      if (!docs) return NOT_BSON;
      visit(docs);
      return undefined;
    },
    from,
  );
}

/** The records of `bytes` from `from` in order, and where (if anywhere) the first damaged one starts. */
export function decodeRecords(
  bytes: Buffer,
  from = 0,
): { records: Document[][]; end: number; damage?: Damage } {
  const records: Document[][] = [];
  return { records, ...readRecords(bytes, (docs) => records.push(docs), from) };
}

/**
 * The documents of a payload of BSON documents back to back (a `{ pack: [...] }` counting as its
 * documents), or undefined if it is not that.
 */
export function splitDocuments(payload: Buffer): Document[] | undefined {
  const docs: Document[] = [];
  let at = 0;
  try {
    while (at < payload.length) {
      const size = payload.readInt32LE(at);
      if (size < 5 || at + size > payload.length) return undefined;
      const doc = BSON.deserialize(payload.subarray(at, at + size));
      if (Array.isArray(doc.pack)) docs.push(...(doc.pack as Document[]));
      else docs.push(doc);
      at += size;
    }
  } catch {
    return undefined;
  }
  return docs;
}

/** A stretch of a file holding no whole record: from the damaged record to the next whole one. */
interface DamagedSpan extends Damage {
  /** Where the next whole record starts (the end of the file when none follows). */
  end: number;
}

/** Every whole record of a file, also those after damage. */
export interface RecordScan {
  /** The records, unless a visitor took them as they were read. */
  records: Document[][];
  /** How many whole records there are. */
  count: number;
  /** The stretches of whole records, `[start, end)`, in order: what a repair keeps. */
  kept: Array<[start: number, end: number]>;
  /** The damaged stretches, in order. */
  damage: DamagedSpan[];
  /** How many of `records` come after the first damaged stretch. */
  afterDamage: number;
}

const ignore: RecordVisitor = () => undefined;

/** Whether a whole, valid record starts at `at`. */
function recordAt(bytes: Buffer, at: number): boolean {
  if (at < 0 || bytes.length - at < HEADER_BYTES) return false;
  const length = bytes.readUInt32LE(at);
  const start = at + HEADER_BYTES;
  if (length < 5 || start + length > bytes.length) return false;
  const first = bytes.readInt32LE(start); // a payload starts with its first document's length
  if (first < 5 || first > length) return false;
  const payload = bytes.subarray(start, start + length);
  return crc32(payload) === bytes.readUInt32LE(at + 4) && splitDocuments(payload) !== undefined;
}

/**
 * Where a record whose length runs past the end of the file would end if only its length were
 * damaged: after whole documents whose checksum is the record's. Undefined for a record that
 * was cut short (a torn tail).
 */
function endByDocuments(bytes: Buffer, start: number, checksum: number): number | undefined {
  let at = start;
  while (bytes.length - at >= 5) {
    const size = bytes.readInt32LE(at);
    if (size < 5 || at + size > bytes.length) return undefined;
    at += size;
    if (crc32(bytes.subarray(start, at)) === checksum) return at;
  }
  return undefined;
}

/**
 * Where the whole records after the damaged record at `damaged` start again, if anywhere.
 * The damaged record's own extent is trusted first (a damaged payload); failing that the bytes
 * are searched for the next whole record, but one inside the damaged record's extent counts
 * only if the records from it run past that extent: the bytes of a record cut short (a
 * document's own contents) never pass for records that follow it.
 */
function resume(bytes: Buffer, damaged: number): number | undefined {
  if (bytes.length - damaged < HEADER_BYTES) return undefined;
  const length = bytes.readUInt32LE(damaged);
  const start = damaged + HEADER_BYTES;
  if (length === 0 || start + length > bytes.length) {
    const end = endByDocuments(bytes, start, bytes.readUInt32LE(damaged + 4));
    return end !== undefined && recordAt(bytes, end) ? end : undefined;
  }
  const extent = start + length;
  if (recordAt(bytes, extent)) return extent;
  for (let at = damaged + 1; at + HEADER_BYTES < bytes.length; at++) {
    if (!recordAt(bytes, at)) continue;
    if (at >= extent || readRecords(bytes, ignore, at).end > extent) return at;
  }
  return undefined;
}

/**
 * Reads every whole record of `bytes`: after a damaged one, reading starts again at the next
 * whole record (see `resume`), so that damage in the middle of a file is told apart from a torn
 * tail (damage with nothing whole after it). Each record goes to `visit` as it is read, in
 * order, if given; otherwise to `records`.
 */
export function scanRecords(bytes: Buffer, visit?: RecordVisitor): RecordScan {
  const scan: RecordScan = { records: [], count: 0, kept: [], damage: [], afterDamage: 0 };
  const take = visit ?? ((docs: Document[]) => scan.records.push(docs));
  let at = 0;
  while (at < bytes.length) {
    const before = scan.count;
    const part = readRecords(
      bytes,
      (docs) => {
        scan.count += 1;
        take(docs);
      },
      at,
    );
    if (scan.damage.length > 0) scan.afterDamage += scan.count - before;
    if (part.end > at) scan.kept.push([at, part.end]);
    if (!part.damage) break;
    const next = resume(bytes, part.damage.offset);
    scan.damage.push({ ...part.damage, end: next ?? bytes.length });
    if (next === undefined) break;
    at = next;
  }
  return scan;
}
