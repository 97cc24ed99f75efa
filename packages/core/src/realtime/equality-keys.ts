/**
 * The subscriber index's keys: which scalar values a filter pins a field to, and which a document
 * holds there ({@link equalityKey}). A subscriber whose filter pins nothing is always tested.
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { equalityKey } from '../model/id-key';

/** The keys a filter's equality or `$in` of scalars on one field names; `undefined` when it is anything else. */
function clauseKeys(value: unknown): string[] | undefined {
  if (!isPlainObject(value)) {
    const key = equalityKey(value);
    return key === undefined ? undefined : [key];
  }
  const operators = Object.keys(value);
  if (operators.length !== 1 || operators[0] !== '$in' || !Array.isArray(value.$in)) return undefined;
  const keys = value.$in.map(equalityKey);
  return keys.every((key) => key !== undefined) ? (keys as string[]) : undefined;
}

/** A top-level field a filter pins to one of a few scalar values: every matching document holds one. */
export interface EqualityClause {
  readonly field: string;
  readonly keys: readonly string[];
}

/** The first top-level (or top-level `$and`) field of `filter` that {@link clauseKeys} keys. */
export function equalityClause(filter: Document): EqualityClause | undefined {
  for (const [field, value] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(value)) {
      for (const part of value) {
        const found = isPlainObject(part) ? equalityClause(part) : undefined;
        if (found) return found;
      }
    }
    if (field.startsWith('$') || field.includes('.')) continue;
    const keys = clauseKeys(value);
    if (keys !== undefined) return { field, keys };
  }
  return undefined;
}

/**
 * The keys of what `doc` holds at `field` (each element of an array, which equality matches);
 * `undefined` when one value is not keyable (then no subscriber on the field may be skipped).
 */
export function documentKeys(doc: Document, field: string): string[] | undefined {
  const value = doc[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    const key = equalityKey(value);
    return key === undefined ? undefined : [key];
  }
  const keys: string[] = [];
  for (const item of value as unknown[]) {
    if (item === null) continue;
    const key = equalityKey(item);
    if (key === undefined) return undefined;
    keys.push(key);
  }
  return keys;
}
