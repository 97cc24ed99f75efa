/**
 * How values enter and leave the embedded engine: normalized exactly as the driver stores
 * them (a BSON round trip: Date stays Date, ObjectId stays ObjectId, undefined becomes
 * null, Buffers become Binary) and deep-copied both ways, so no caller can reach stored
 * state. Plus the canonical `_id` key that keeps `"1"`, `1` and ObjectIds apart.
 */

import type { Document } from '@store/common';
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
  return asBadValue('document', () => BSON.deserialize(BSON.serialize(doc, { ignoreUndefined: false })));
}

/** The BSON bytes of a stored document (to tell whether an update changed anything). */
export function bsonBytes(doc: Document): Uint8Array {
  return BSON.serialize(doc);
}

/** Sets an own property, even one named `__proto__` (which must never reach a prototype). */
export function setOwn(target: Document, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
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
