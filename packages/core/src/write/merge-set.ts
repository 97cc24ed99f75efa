import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { ObjectId } from 'bson';
import { storeError } from '../model/error-codes';

/**
 * Most `null`s a dotted key may add to extend an array (`tags.9999` on three tags). MongoDB
 * allows far more; the bound keeps a hostile PATCH from building a huge array in memory.
 */
export const MAX_ARRAY_PADDING = 10_000;

/** An array index segment as MongoDB reads one in an update path: digits, no leading zero. */
const INDEX_SEGMENT = /^(?:0|[1-9]\d*)$/;

type Container = Document | unknown[];

const cut = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}...` : text);

function notViable(key: string, through: string, problem: string) {
  return storeError(
    'invalid_body',
    `body[${JSON.stringify(cut(key))}]: "${cut(through)}" ${problem}, so the key cannot set a field inside it.`,
  );
}

/** The `_bsontype` of a BSON value (ObjectId, Decimal128, ...) of any bson copy. */
function bsonType(value: unknown): string | undefined {
  const type =
    typeof value === 'object' && value !== null ? (value as { _bsontype?: unknown })._bsontype : undefined;
  return typeof type === 'string' ? type : undefined;
}

/** What a value that cannot hold a field is, for the error detail. */
function kindOf(value: unknown): string {
  if (value === null) return 'is null';
  if (value instanceof Date) return 'is a date';
  const type = bsonType(value);
  return type === undefined ? `is a ${typeof value}` : `is a BSON ${type}`;
}

/** A prototype-free deep copy: plain objects and arrays copied, Dates and ObjectIds re-made. */
function copyValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyValue);
  if (value instanceof Date) return new Date(value.getTime());
  if (bsonType(value) === 'ObjectId') return ObjectId.createFromHexString((value as ObjectId).toHexString());
  if (!isPlainObject(value)) return value;
  const copy: Document = Object.create(null);
  for (const [key, item] of Object.entries(value)) copy[key] = copyValue(item);
  return copy;
}

/** The index a segment names in `array`, or the error MongoDB answers (code 28 PathNotViable). */
function indexIn(array: unknown[], segment: string, key: string, through: string): number {
  if (!INDEX_SEGMENT.test(segment)) throw notViable(key, through, 'is an array (use an index such as .0)');
  const index = Number(segment);
  if (index - array.length > MAX_ARRAY_PADDING) {
    throw storeError(
      'invalid_body',
      `body[${JSON.stringify(cut(key))}]: the index extends "${cut(through)}" by more than ${MAX_ARRAY_PADDING} elements.`,
    );
  }
  return index;
}

function read(container: Container, segment: string, key: string, through: string): unknown {
  if (!Array.isArray(container)) return Object.hasOwn(container, segment) ? container[segment] : undefined;
  return container[indexIn(container, segment, key, through)];
}

/** Sets one segment; an index past the end extends the array with `null`s, as MongoDB does. */
function write(container: Container, segment: string, value: unknown, key: string, through: string): void {
  if (!Array.isArray(container)) {
    container[segment] = value;
    return;
  }
  const index = indexIn(container, segment, key, through);
  while (container.length < index) container.push(null);
  container[index] = value;
}

function setPath(target: Document, key: string, value: unknown): void {
  const segments = key.split('.');
  if (segments.includes(''))
    throw storeError('invalid_body', `body[${JSON.stringify(cut(key))}]: a path segment is empty.`);
  let container: Container = target;
  for (const [i, segment] of segments.entries()) {
    const through = segments.slice(0, i).join('.');
    if (i === segments.length - 1) {
      write(container, segment, value, key, through);
      return;
    }
    let child = read(container, segment, key, through);
    if (child === undefined) {
      child = Object.create(null);
      write(container, segment, child, key, through);
    }
    const path = segments.slice(0, i + 1).join('.');
    if (!Array.isArray(child) && !isPlainObject(child)) throw notViable(key, path, kindOf(child));
    container = child;
  }
}

/** Refuses a key inside another key (`a` and `a.b`), as MongoDB does (code 40 ConflictingUpdateOperators). */
export function checkNoOverlap(keys: readonly string[]): void {
  const all = new Set(keys);
  for (const key of keys) {
    for (let dot = key.indexOf('.'); dot !== -1; dot = key.indexOf('.', dot + 1)) {
      const parent = key.slice(0, dot);
      if (all.has(parent)) {
        throw storeError('invalid_body', `body: the keys "${cut(parent)}" and "${cut(key)}" overlap.`);
      }
    }
  }
}

/**
 * The document a MongoDB `{ $set: set }` would make of `document`: top-level and dotted keys,
 * missing objects created on the way, an array index past the end extending the array with
 * `null`s. The result is a new prototype-free deep copy; neither argument is changed.
 * Throws 400 `invalid_body` where MongoDB refuses the update: a key through a scalar, a null,
 * a Date or an ObjectId, or through an array by a non-index segment (code 28); a key inside
 * another key (code 40); an empty segment. `_id` is set like any key: leave it out if it must
 * not change. Other BSON values (Binary, Decimal128, ...) are shared, not copied.
 */
export function applySet(document: Document, set: Document): Document {
  const keys = Object.keys(set);
  checkNoOverlap(keys);
  const target = copyValue(document) as Document;
  for (const key of keys) setPath(target, key, copyValue(set[key]));
  return target;
}
