/**
 * Reading one field of a document the two ways the engine's operators read it, without
 * allocating on the common paths. The comparison operators walk the path with `someAtPath`
 * (paths.ts); `$in`, `$nin`, `$size`, `$regex` and `$exists` take mingo's `resolve`, which
 * builds arrays when the path crosses one: here a path that meets only plain objects (and
 * positions in arrays) is walked directly, and anything else is left to `resolve` itself.
 * Every test built here is called on a plain-object document (fast-filter.ts sees to that).
 */

import type { Document } from '@store/common';
import type { ArrayOrObject } from 'mingo/types';
import { resolve } from '../mingo';
import { someAtPath, type ValueTest } from '../paths';

type Test = (doc: Document) => boolean;
type Read = (doc: Document) => unknown;

/** A field of a filter, split once. */
export interface FieldPath {
  readonly name: string;
  readonly segments: readonly string[];
}

/** What plain objects inherit (`constructor`, `__proto__`, ...): mingo and `Object.hasOwn` read such names apart. */
const INHERITED: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * The path of `name`, or undefined when a segment is empty or a name plain objects inherit:
 * on such fields the engine's own operators run (see field-condition.ts).
 */
export function fieldPath(name: string): FieldPath | undefined {
  const segments = name.split('.');
  for (const segment of segments) if (segment === '' || INHERITED.has(segment)) return undefined;
  return { name, segments };
}

const OBJECT_PROTOTYPE: unknown = Object.prototype;

/**
 * True for an object whose prototype is `Object.prototype`, read through the `__proto__`
 * accessor, which V8 inlines where `Object.getPrototypeOf` is a call (13-25 ns per document on
 * Node 20). False for a null prototype or an own `__proto__` key: callers then take an exact,
 * slower path.
 */
export const isOrdinaryObject = (value: object): boolean =>
  // biome-ignore lint/suspicious/noProto: measured ~0 ns per document against ~13-25 ns for Object.getPrototypeOf on Node 20.
  (value as { __proto__?: unknown }).__proto__ === OBJECT_PROTOTYPE;

/** `test` holding for some value MongoDB reaches at `path`: `someAtPath`, walked directly while no array is met. */
export function someAt(path: FieldPath, test: ValueTest): Test {
  const { segments } = path;
  const [first] = segments as [string];
  if (segments.length === 1) return (doc) => test(doc[first]);
  return (doc) => {
    let value: unknown = doc;
    for (const segment of segments) {
      // A missing field, null or a scalar on the way: the path is missing (`someAtPath` tests undefined).
      if (typeof value !== 'object' || value === null) return test(undefined);
      if (!isOrdinaryObject(value)) return someAtPath(doc, segments, test);
      value = (value as Document)[segment];
    }
    return test(value);
  };
}

/** Returned by {@link walk} for a path only mingo's `resolve` reads exactly. */
const UNWALKED = Symbol('unwalked');
const DIGITS = /^\d+$/;

/**
 * The value at `segments` when the path crosses only plain objects (and, with `positions`,
 * numbered positions in arrays): what mingo's `resolve` answers there. Else {@link UNWALKED}.
 */
function walk(doc: Document, segments: readonly string[], positions: boolean): unknown {
  let value: unknown = doc;
  for (const segment of segments) {
    if (value === null) return undefined;
    if (typeof value !== 'object') return typeof value === 'function' ? UNWALKED : undefined;
    if (Array.isArray(value)) {
      if (!positions || !DIGITS.test(segment)) return UNWALKED;
      value = value[Number(segment)];
    } else if (isOrdinaryObject(value)) value = (value as Document)[segment];
    else return UNWALKED;
    if (value === undefined) return undefined;
  }
  return value;
}

const RESOLVE = { unwrapArray: true } as const;

/** The value mingo's `resolve(doc, path, { unwrapArray: true })` gives: what `$in`, `$size`, `$regex` test. */
export function resolvedAt(path: FieldPath): Read {
  const { name, segments } = path;
  const [first] = segments as [string];
  if (segments.length === 1) return (doc) => doc[first];
  return (doc) => {
    const value = walk(doc, segments, true);
    return value === UNWALKED ? resolve(doc as ArrayOrObject, name, RESOLVE) : value;
  };
}

/**
 * mingo's `$exists` (`wanted`: its operand's truth): a dotted path not ending in a position is
 * read through `resolveGraph`, which `whenCrossing` (mingo's own `$exists`) does wherever the
 * path crosses an array; elsewhere the field exists when a value is found.
 */
export function existsAt(path: FieldPath, wanted: boolean, whenCrossing: Test): Test {
  const { segments } = path;
  if (segments.length === 1 || DIGITS.test(segments[segments.length - 1] as string)) {
    const read = resolvedAt(path);
    return (doc) => (read(doc) !== undefined) === wanted;
  }
  return (doc) => {
    const value = walk(doc, segments, false);
    return value === UNWALKED ? whenCrossing(doc) : (value !== undefined) === wanted;
  };
}
