/**
 * `$in` / `$nin` with their lookup set built once per compiled filter. mingo's own operators
 * hash the whole operand list again for every document they test (expensive with ObjectIds);
 * these build typed sets at compile time and test each value of a document in O(1), with
 * exactly mingo's semantics: the field resolved the same way, a missing or null field
 * matching a `null` member, any element of an array matching, string members compared by
 * value, numbers by value (`1` never matches `"1"`), ObjectIds by hex, Dates by time, regex
 * members testing strings (run by RE2, see `linear-regex.ts`). Operands this does not reproduce exactly (sub-documents, arrays,
 * other BSON types, stateful `g`/`y` patterns, invalid Dates, a non-array) go to mingo's.
 */

import type { Document } from '@store/common';
import type { ObjectId } from 'bson';
import type { ArrayOrObject } from 'mingo/types';
import { linearMembers, linearRegExp } from './linear-regex';
import { queryOperators, resolve } from './mingo';
import { isObjectId } from './values';

/** A mingo query operator, options included (they are passed through to mingo's fallback). */
export type QueryOperator = (
  selector: string,
  operand: unknown,
  options: unknown,
) => (doc: Document) => boolean;

const mingoIn = queryOperators.$in as unknown as QueryOperator;
const mingoNin = queryOperators.$nin as unknown as QueryOperator;
const RESOLVE = { unwrapArray: true } as const;

/** The members of one `$in` operand, by kind. */
export interface InLookup {
  readonly strings: Set<string>;
  readonly numbers: Set<number>;
  readonly booleans: Set<boolean>;
  /** Hex strings of the ObjectId members, filed from `unfiledObjectIds` when first needed. */
  readonly objectIds: Set<string>;
  /** ObjectId members not yet in `objectIds`: most documents tested never hold an ObjectId. */
  readonly unfiledObjectIds: ObjectId[];
  readonly dates: Set<number>;
  readonly patterns: RegExp[];
  hasNull: boolean;
}

const isValidDate = (value: unknown): value is Date =>
  value instanceof Date && !Number.isNaN(value.getTime());
const isStatelessPattern = (value: unknown): value is RegExp =>
  value instanceof RegExp && !value.global && !value.sticky;

/** Files one member in the lookup by its kind; false for a kind the fast path does not reproduce. */
function addMember(lookup: InLookup, member: unknown): boolean {
  if (typeof member === 'string') lookup.strings.add(member);
  else if (typeof member === 'number') lookup.numbers.add(member);
  else if (typeof member === 'boolean') lookup.booleans.add(member);
  else if (member === null) lookup.hasNull = true;
  else if (isObjectId(member)) lookup.unfiledObjectIds.push(member);
  else if (isValidDate(member)) lookup.dates.add(member.getTime());
  else if (isStatelessPattern(member)) lookup.patterns.push(linearRegExp(member));
  else return false;
  return true;
}

/** The lookup of an `$in` operand, or undefined when mingo must evaluate it. */
export function inLookup(operand: unknown): InLookup | undefined {
  if (!Array.isArray(operand)) return undefined;
  const lookup: InLookup = {
    strings: new Set(),
    numbers: new Set(),
    booleans: new Set(),
    objectIds: new Set(),
    unfiledObjectIds: [],
    dates: new Set(),
    patterns: [],
    hasNull: false,
  };
  for (const member of operand) if (!addMember(lookup, member)) return undefined;
  return lookup;
}

const samePattern = (a: RegExp, b: RegExp): boolean => a.source === b.source && a.flags === b.flags;

/** The hex strings of the lookup's ObjectId members (filed the first time a document holds one). */
function objectIdsOf(lookup: InLookup): Set<string> {
  for (const id of lookup.unfiledObjectIds) lookup.objectIds.add(id.toHexString());
  lookup.unfiledObjectIds.length = 0;
  return lookup.objectIds;
}

/** True when one value of a document equals (or, for a string, matches a pattern of) a member. */
function memberMatches(lookup: InLookup, value: unknown): boolean {
  if (typeof value === 'string') {
    return lookup.strings.has(value) || lookup.patterns.some((pattern) => pattern.test(value));
  }
  if (typeof value === 'number') return lookup.numbers.has(value);
  if (typeof value === 'boolean') return lookup.booleans.has(value);
  if (value === null) return lookup.hasNull;
  if (value instanceof Date) return lookup.dates.has(value.getTime());
  if (isObjectId(value)) {
    const objectIds = objectIdsOf(lookup);
    return objectIds.size > 0 && objectIds.has(value.toHexString());
  }
  if (value instanceof RegExp) return lookup.patterns.some((pattern) => samePattern(pattern, value));
  return false;
}

/** mingo's `$in` test on a resolved field value, with the lookup instead of a per-test hash map. */
export function inMatches(lookup: InLookup, resolved: unknown): boolean {
  if (resolved === null || resolved === undefined) return lookup.hasNull;
  if (!Array.isArray(resolved)) return memberMatches(lookup, resolved);
  for (const value of resolved) if (memberMatches(lookup, value)) return true;
  return false;
}

/** `{ field: { $in: [...] } }`. */
export const $in: QueryOperator = (selector, operand, options) => {
  const lookup = inLookup(operand);
  if (!lookup) return mingoIn(selector, linearMembers(operand), options);
  return (doc) => inMatches(lookup, resolve(doc as ArrayOrObject, selector, RESOLVE));
};

/** `{ field: { $nin: [...] } }`: the negation of `$in`, as in mingo. */
export const $nin: QueryOperator = (selector, operand, options) => {
  const lookup = inLookup(operand);
  if (!lookup) return mingoNin(selector, linearMembers(operand), options);
  return (doc) => !inMatches(lookup, resolve(doc as ArrayOrObject, selector, RESOLVE));
};
