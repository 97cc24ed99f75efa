/**
 * A secondary index of the embedded engine on one top-level field: index key -> keys of the
 * documents holding it, kept through every insert, update, replace and delete. A document is
 * filed under each value its field resolves to the way mingo's `$in` / `$eq` resolve it (the
 * value, or each element of an array; `null` when missing or null), so the documents filed
 * under the keys of an `$in` list are exactly the ones whose field can match it.
 */

import type { Document } from '@store/common';
import type { ArrayOrObject } from 'mingo/types';
import { resolve } from './mingo';
import { idKey, isObjectId } from './values';

const NULL_KEY = idKey(null);

/** Values an index lookup compares by key exactly as mingo compares them: scalars, ObjectIds, valid Dates. */
export function isIndexKeyable(value: unknown): boolean {
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean' || value === null) return true;
  return isObjectId(value) || (value instanceof Date && !Number.isNaN(value.getTime()));
}

/** True for a field this index kind can serve: top-level (no dotted path), not `_id`. */
export function isIndexableField(field: string): boolean {
  return field !== '_id' && field !== '__proto__' && !field.includes('.') && !field.startsWith('$');
}

/** The index keys `doc` is filed under. */
function keysOf(field: string, doc: Document): string[] {
  const value = resolve(doc as ArrayOrObject, field, { unwrapArray: true });
  if (value === null || value === undefined) return [NULL_KEY];
  const values: unknown[] = Array.isArray(value) ? value : [value];
  return values.filter(isIndexKeyable).map(idKey);
}

/** One field's index. */
export class FieldIndex {
  readonly field: string;
  readonly #entries = new Map<string, Set<string>>();

  constructor(field: string, docs: Iterable<[string, Document]>) {
    this.field = field;
    for (const [docKey, doc] of docs) this.add(docKey, doc);
  }

  /** Files the document `docKey` under each of its keys. */
  add(docKey: string, doc: Document): void {
    for (const key of keysOf(this.field, doc)) {
      const holders = this.#entries.get(key);
      if (holders) holders.add(docKey);
      else this.#entries.set(key, new Set([docKey]));
    }
  }

  /** Removes the document `docKey` (as it was stored) from each of its keys. */
  remove(docKey: string, doc: Document): void {
    for (const key of keysOf(this.field, doc)) {
      const holders = this.#entries.get(key);
      holders?.delete(docKey);
      if (holders?.size === 0) this.#entries.delete(key);
    }
  }

  /** Keys of the documents filed under any of `keys` (index keys of `idKey()`), a fresh set. */
  lookup(keys: readonly string[]): Set<string> {
    const found = new Set<string>();
    for (const key of keys) {
      const holders = this.#entries.get(key);
      if (holders) for (const docKey of holders) found.add(docKey);
    }
    return found;
  }
}
