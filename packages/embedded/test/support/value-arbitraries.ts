/** Generators of stored values shared by the engine's property tests. */
import { type Document, setOwn } from '@store/common';
import fc from 'fast-check';

/** The scalars JSON has, small: strings (of any units, and of single bytes), numbers, booleans, null. */
export const jsonScalars = [
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
] as const;

/** An object of `entries` in their order, each an own member (`__proto__` too, never the prototype). */
export function ownObject(entries: Iterable<[string, unknown]>): Document {
  const doc: Document = {};
  for (const [key, value] of entries) setOwn(doc, key, value);
  return doc;
}
