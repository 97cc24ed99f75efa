import { ObjectId } from 'bson';
import type { Document } from './db-types';

const INTEGER = /^-?(?:0|[1-9]\d*)$/;
const OBJECT_ID = /^[0-9a-fA-F]{24}$/;

/** The `_id` of a document posted without one: a new ObjectId as a 24-hex string. */
export function newId(): string {
  return new ObjectId().toHexString();
}

/**
 * Every stored `_id` a path segment matches: the same string; the same number when the
 * segment is an integer; the same ObjectId when it is 24 hex digits.
 */
export function idCandidates(segment: string): unknown[] {
  const candidates: unknown[] = [segment];
  if (INTEGER.test(segment) && Number.isSafeInteger(Number(segment))) candidates.push(Number(segment));
  if (OBJECT_ID.test(segment)) candidates.push(ObjectId.createFromHexString(segment));
  return candidates;
}

/** The filter that finds the document a path segment names. */
export function idFilter(segment: string): Document {
  const candidates = idCandidates(segment);
  return { _id: candidates.length === 1 ? segment : { $in: candidates } };
}

/**
 * The filter that finds every stored `_id` sharing a path with `id` other than `id` itself,
 * or `null` when none can: the string of a number and the number of an integer string; the
 * ObjectId of a 24-hex string and, for an ObjectId, its hex in any letter case. Two such ids
 * would put two documents behind one URL (`/<res>/7` reads `7` and `"7"` alike).
 */
export function aliasFilter(id: unknown): Document | null {
  if (typeof id === 'number') return Number.isSafeInteger(id) ? { _id: String(id) } : null;
  if (typeof id === 'string') {
    const others = idCandidates(id).slice(1);
    return others.length === 0 ? null : { _id: others.length === 1 ? others[0] : { $in: others } };
  }
  if (isObjectId(id)) return { _id: { $regex: `^${id.toHexString()}$`, $options: 'i' } };
  return null;
}

function isObjectId(id: unknown): id is ObjectId {
  return typeof id === 'object' && id !== null && (id as ObjectId)._bsontype === 'ObjectId';
}

/** The text form of a stored `_id`, as it appears in paths and `Location` headers. */
export function idToString(id: unknown): string {
  if (id instanceof ObjectId || (typeof id === 'object' && id !== null && 'toHexString' in id)) {
    return (id as ObjectId).toHexString();
  }
  return String(id);
}

/** Whether two stored `_id` values are the same id (ObjectIds compare by value). */
export function sameId(a: unknown, b: unknown): boolean {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    return idToString(a) === idToString(b) && (a as ObjectId)._bsontype === (b as ObjectId)._bsontype;
  }
  return a === b;
}
