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
