/** One unique index of the embedded engine: index key -> key of the document that holds it. */
import type { Document, IndexSpec } from '@store/common';
import { EmbeddedDbError } from './errors';
import { valuesAtPath } from './paths';
import { idKey } from './values';

/** Keeps one unique index of a collection. */
export interface UniqueIndex {
  /** Throws a duplicate-key error when `doc` takes a key another document holds. */
  check(docKey: string, doc: Document): void;
  add(docKey: string, doc: Document): void;
  remove(docKey: string, doc: Document): void;
}

/** The cartesian product of the values of each indexed field (multikey), as index keys. */
function entries(
  fields: string[],
  sparse: boolean,
  doc: Document,
): Array<{ key: string; values: unknown[] }> {
  const perField = fields.map((field) => valuesAtPath(doc, field, true));
  if (sparse && perField.every((values) => values.length === 0)) return [];
  let combos: unknown[][] = [[]];
  for (const values of perField) {
    const options = values.length === 0 ? [null] : values;
    combos = combos.flatMap((combo) => options.map((value) => [...combo, value]));
  }
  return combos.map((values) => ({ key: idKey(values), values }));
}

/** Builds a unique index over `docs`, throwing a duplicate-key error if they already collide. */
export function createUniqueIndex(
  spec: IndexSpec,
  sparse: boolean,
  docs: Iterable<[string, Document]>,
): UniqueIndex {
  const fields = Object.keys(spec);
  const owners = new Map<string, string>();
  const index: UniqueIndex = {
    check(docKey, doc) {
      for (const entry of entries(fields, sparse, doc)) {
        const owner = owners.get(entry.key);
        if (owner === undefined || owner === docKey) continue;
        const keyValue = Object.fromEntries(fields.map((field, i) => [field, entry.values[i]]));
        throw new EmbeddedDbError(
          'DuplicateKey',
          `E11000 duplicate key error dup key: ${JSON.stringify(keyValue)}`,
          {
            keyPattern: { ...spec },
            keyValue,
          },
        );
      }
    },
    add(docKey, doc) {
      for (const entry of entries(fields, sparse, doc)) owners.set(entry.key, docKey);
    },
    remove(docKey, doc) {
      for (const entry of entries(fields, sparse, doc))
        if (owners.get(entry.key) === docKey) owners.delete(entry.key);
    },
  };
  for (const [docKey, doc] of docs) {
    index.check(docKey, doc);
    index.add(docKey, doc);
  }
  return index;
}
