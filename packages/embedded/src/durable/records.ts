/**
 * The on-disk record format shared by the journal and the snapshot. A record is
 *
 *     u32 LE payload length | u32 LE CRC-32 of the payload | payload
 *
 * and its payload is one or more BSON documents back to back (each starts with its own length):
 * a change, or `{ pack: [changes] }`. A record carries the changes of one operation whatever
 * their number (of one slice, for an updateMany or deleteMany that runs in several), and values
 * keep their BSON types (ObjectId, Date, Decimal128, Long, Binary,
 * regular expressions).
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
  | { c: string; dropIndex: string };

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

/** Frames `docs` as one record. */
export function encodeRecord(docs: readonly Document[]): Buffer {
  const payload = Buffer.concat(serialized(docs));
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}

/** Why reading stopped before the end of a file. */
export interface Damage {
  /** Byte offset of the first record that could not be read. */
  offset: number;
  reason: string;
}

/** The records of `bytes` in order, and where (if anywhere) the first damaged one starts. */
export function decodeRecords(bytes: Buffer): { records: Document[][]; end: number; damage?: Damage } {
  const records: Document[][] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const damage = (reason: string) => ({ records, end: offset, damage: { offset, reason } });
    if (bytes.length - offset < HEADER_BYTES) return damage('a record header cut short');
    const length = bytes.readUInt32LE(offset);
    const checksum = bytes.readUInt32LE(offset + 4);
    const start = offset + HEADER_BYTES;
    if (length === 0 || start + length > bytes.length) return damage('a record cut short');
    const payload = bytes.subarray(start, start + length);
    if (crc32(payload) !== checksum) return damage('a record whose checksum does not match');
    const docs = splitDocuments(payload);
    if (!docs) return damage('a record whose contents are not BSON');
    records.push(docs);
    offset = start + length;
  }
  return { records, end: offset };
}

function splitDocuments(payload: Buffer): Document[] | undefined {
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
