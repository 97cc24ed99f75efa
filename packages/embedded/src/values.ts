/**
 * How values enter and leave the embedded engine: normalized exactly as the driver stores
 * them (a BSON round trip: Date stays Date, ObjectId stays ObjectId, undefined becomes
 * null, Buffers become Binary; plain values are copied as the round trip would leave them,
 * without it) and deep-copied both ways, so no caller can reach stored state (a document
 * handed over by its caller, who never touches it again, is kept as it is). Plus the
 * canonical `_id` key that keeps `"1"`, `1` and ObjectIds apart.
 */

import { type Document, setOwn } from '@store/common';
import { BSON, EJSON, ObjectId } from 'bson';
import { asBadValue } from './errors';

/** True for an ObjectId of any bson copy. */
export function isObjectId(value: unknown): value is ObjectId {
  return (
    value instanceof ObjectId ||
    (typeof value === 'object' &&
      value !== null &&
      (value as { _bsontype?: unknown })._bsontype === 'ObjectId')
  );
}

/** A document as the driver would store it: a fresh, normalized copy (undefined becomes null, as by default). */
export function toStored(doc: Document): Document {
  return plainAsStored(doc, true) ?? roundTrip(doc);
}

/**
 * {@link toStored} for a document its caller hands over and never touches again (a file just
 * parsed): `doc` itself when it is already as the round trip would store it (plain values,
 * ObjectIds, valid dates; see {@link sameAsStored}), so it is not copied; else the copy.
 * Plain data only: an array carrying members besides its items is not looked for.
 */
export function handedOverAsStored(doc: Document): Document {
  return plainAsStored(doc, false) ?? roundTrip(doc);
}

const roundTrip = (doc: Document): Document =>
  asBadValue('document', () => BSON.deserialize(BSON.serialize(doc, { ignoreUndefined: false })));

/** `doc` as stored, copied (`copy`) or itself, when {@link sameAsStored} knows it; else undefined. */
function plainAsStored(doc: Document, copy: boolean): Document | undefined {
  if (
    typeof doc !== 'object' ||
    doc === null ||
    Object.getPrototypeOf(doc) !== Object.prototype ||
    polluted()
  ) {
    return undefined;
  }
  const at: Walk = { depth: 0, bytes: 0, copy };
  try {
    const stored = sameAsStored(doc, at);
    if (stored !== NOT_PLAIN && at.bytes <= PLAIN_BYTES) return stored as Document;
  } catch {
    // A getter that throws: the round trip reads it again and answers as it always has.
  }
  return undefined;
}

/** Where {@link sameAsStored} is: nesting, bytes so far (UTF-8, at most), and whether it copies. */
interface Walk {
  depth: number;
  bytes: number;
  copy: boolean;
}

/** What {@link sameAsStored} answers for a value it leaves to the BSON round trip. */
const NOT_PLAIN = Symbol('notPlain');
/** Nesting past which, and bytes (UTF-8, at most) past which, a document is left to the BSON round trip. */
const PLAIN_DEPTH = 64;
const PLAIN_BYTES = 1024 * 1024;

/**
 * `value` as the BSON round trip of {@link toStored} would make it, for the values that round
 * trip unchanged (most documents: JSON's values, ObjectIds, valid dates), without serializing:
 * with `at.copy` plain objects and arrays copied, strings (immutable) shared; without, `value`
 * itself. `NOT_PLAIN` for anything the round trip changes or refuses, or that this walk does
 * not know (`undefined`, array holes, a string or key that is not well-formed UTF-16, a key
 * holding NUL or starting with `$`, `_bsontype` or `toBSON` members, another class, a BSON
 * type, bigint), and for a document nested deeper than {@link PLAIN_DEPTH} or larger than
 * {@link PLAIN_BYTES}: the round trip answers those (and refuses what it refuses) as before.
 */
function sameAsStored(value: unknown, at: Walk): unknown {
  switch (typeof value) {
    case 'number':
    case 'boolean':
      at.bytes += 9;
      return value;
    case 'string':
      at.bytes += 3 * value.length + 5;
      return isWellFormed(value) ? value : NOT_PLAIN;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return value;
  if (at.bytes > PLAIN_BYTES || at.depth >= PLAIN_DEPTH) return NOT_PLAIN;
  const proto = Object.getPrototypeOf(value);
  if (proto === Array.prototype) return arrayAsStored(value as unknown[], at);
  if (proto === Object.prototype) return objectAsStored(value as Document, at);
  if (proto === ObjectId.prototype) {
    return at.copy ? new ObjectId((value as ObjectId).toHexString()) : value;
  }
  if (proto === Date.prototype) {
    const time = (value as Date).getTime();
    if (Number.isNaN(time)) return NOT_PLAIN;
    return at.copy ? new Date(time) : value;
  }
  return NOT_PLAIN;
}

/** `String.prototype.isWellFormed` (Node >= 20; not in the ES2023 library types): no lone surrogate. */
export const isWellFormed = (text: string): boolean =>
  (text as string & { isWellFormed(): boolean }).isWellFormed();

function arrayAsStored(value: unknown[], at: Walk): unknown {
  const copy: unknown[] = at.copy ? new Array(value.length) : value;
  at.depth++;
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    // A hole or undefined is null after the round trip: left to it.
    const inner = item === undefined ? NOT_PLAIN : sameAsStored(item, at);
    if (inner === NOT_PLAIN) return NOT_PLAIN;
    if (at.copy) copy[i] = inner;
  }
  at.depth--;
  return copy;
}

function objectAsStored(value: Document, at: Walk): unknown {
  const copy: Document = at.copy ? {} : value;
  at.depth++;
  // Own keys only: `for...in` lists no inherited one, `plainAsStored` having found none on
  // Object.prototype; and it allocates nothing, unlike Object.keys.
  for (const key in value) {
    if (!isPlainKey(key)) return NOT_PLAIN;
    at.bytes += 3 * key.length;
    const inner = value[key];
    if (inner === undefined) return NOT_PLAIN;
    const stored = sameAsStored(inner, at);
    if (stored === NOT_PLAIN) return NOT_PLAIN;
    if (at.copy) setOwn(copy, key, stored);
  }
  at.depth--;
  return copy;
}

/** Keys found plain by {@link plainKey} (documents repeat their keys): at most {@link PLAIN_KEYS_KEPT}, each short. */
const PLAIN_KEYS = new Set<string>();
const PLAIN_KEYS_KEPT = 4096;
const PLAIN_KEY_KEPT_LENGTH = 64;

/** {@link plainKey}, remembered for a short key found plain. */
function isPlainKey(key: string): boolean {
  if (PLAIN_KEYS.has(key)) return true;
  if (!plainKey(key)) return false;
  if (PLAIN_KEYS.size < PLAIN_KEYS_KEPT && key.length <= PLAIN_KEY_KEPT_LENGTH) PLAIN_KEYS.add(key);
  return true;
}

/** Whether `Object.prototype` has an enumerable member (put there by a polluting script): `for...in` would list it. */
function polluted(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

/**
 * Keys the BSON round trip keeps as they are and that hold no meaning to BSON. Not: keys
 * starting with `$` (a `{ $ref, $id }` reads back as a DBRef), `_bsontype` and `toBSON`, a NUL
 * (BSON refuses it in a key), and keys that are not well-formed UTF-16 (a lone surrogate comes
 * back changed).
 */
export const plainKey = (key: string): boolean =>
  key.charCodeAt(0) !== 0x24 /* $ */ &&
  key !== '_bsontype' &&
  key !== 'toBSON' &&
  !key.includes('\0') &&
  isWellFormed(key);

/** The BSON bytes of a stored document (to tell whether an update changed anything). */
export function bsonBytes(doc: Document): Uint8Array {
  return BSON.serialize(doc);
}

/** A deep copy of a stored value (stored values hold only BSON-representable data). */
export function cloneValue<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneValue) as T;
  if (Object.getPrototypeOf(value) === Object.prototype) return clonePlain(value as Document) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value instanceof RegExp) return new RegExp(value.source, value.flags) as T;
  if (isObjectId(value)) return new ObjectId(value.toHexString()) as T;
  if ('_bsontype' in value) return (BSON.deserialize(BSON.serialize({ v: value })) as { v: T }).v;
  const copy: Document = {};
  for (const [key, inner] of Object.entries(value)) setOwn(copy, key, cloneValue(inner));
  return copy as T;
}

/** A copy of a plain stored object (the common case of {@link cloneValue}, kept allocation-light). */
function clonePlain(value: Document): Document {
  const copy: Document = {};
  for (const key of Object.keys(value)) {
    const inner = cloneValue(value[key]);
    if (key === '__proto__') setOwn(copy, key, inner);
    else copy[key] = inner;
  }
  return copy;
}

/** Whether string `id` could be read as the key of another type (below): it is then kept apart by `s:`. */
const looksTyped = (id: string): boolean =>
  (id.charCodeAt(1) === 0x3a /* : */ && 'nbodxs'.includes(id.charAt(0))) || id === 'null';

/**
 * The canonical key of an `_id`: the type is part of the key, so the string `"1"`, the
 * number `1` and an ObjectId and its hex string never collide. A string is its own key (no
 * copy: most `_id`s are strings) unless it starts as another type's key does (`n:`, `b:`,
 * `o:`, `d:`, `x:`, `null`) or with `s:`; such a string is keyed `s:` and itself.
 */
export function idKey(id: unknown): string {
  if (typeof id === 'string') return looksTyped(id) ? `s:${id}` : id;
  if (typeof id === 'number') return `n:${id === 0 ? 0 : id}`;
  if (typeof id === 'boolean') return `b:${id}`;
  if (id === null) return 'null';
  if (isObjectId(id)) return `o:${id.toHexString()}`;
  if (id instanceof Date) return `d:${id.getTime()}`;
  return `x:${EJSON.stringify(id as Document, { relaxed: false })}`;
}
