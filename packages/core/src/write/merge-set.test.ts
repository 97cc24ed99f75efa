import type { Document } from '@store/common';
import { isStoreError } from '@store/common';
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { applySet, MAX_ARRAY_PADDING } from './merge-set';

function rejection(document: Document, set: Document): { code: string; detail: string } {
  try {
    applySet(document, set);
  } catch (error) {
    if (isStoreError(error)) return { code: error.code, detail: error.detail };
    throw error;
  }
  throw new Error('expected applySet to throw');
}

/** Plain-prototype deep copy for `toEqual` against a prototype-free result. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !(value instanceof ObjectId)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function isPrototypeFreeEverywhere(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(isPrototypeFreeEverywhere);
  if (typeof value !== 'object' || value === null || value instanceof Date || value instanceof ObjectId) {
    return true;
  }
  return Object.getPrototypeOf(value) === null && Object.values(value).every(isPrototypeFreeEverywhere);
}

describe('applySet', () => {
  it.each<[string, Document, Document, unknown]>([
    ['sets a top-level field', { a: 1 }, { b: 2 }, { a: 1, b: 2 }],
    ['replaces a top-level field whole', { a: { x: 1, y: 2 } }, { a: { z: 3 } }, { a: { z: 3 } }],
    ['sets a dotted field, keeping its siblings', { a: { x: 1, y: 2 } }, { 'a.x': 9 }, { a: { x: 9, y: 2 } }],
    ['creates missing objects on the way', { a: 1 }, { 'b.c.d': 2 }, { a: 1, b: { c: { d: 2 } } }],
    ['sets an array element by index', { tags: ['a', 'b'] }, { 'tags.1': 'z' }, { tags: ['a', 'z'] }],
    [
      'sets a field of an array element',
      { l: [{ n: 1 }, { n: 2 }] },
      { 'l.1.n': 5 },
      { l: [{ n: 1 }, { n: 5 }] },
    ],
    ['extends an array with nulls', { tags: ['a'] }, { 'tags.3': 'd' }, { tags: ['a', null, null, 'd'] }],
    ['creates an object inside a new array slot', { l: [] }, { 'l.1.n': 1 }, { l: [null, { n: 1 }] }],
    ['reads a numeric segment on an object as a key', { a: {} }, { 'a.0': 1 }, { a: { '0': 1 } }],
    ['sets several keys', { a: { x: 1 } }, { 'a.y': 2, b: 3 }, { a: { x: 1, y: 2 }, b: 3 }],
    ['sets a field to null', { a: 1 }, { a: null }, { a: null }],
  ])('%s', (_name, document, set, expected) => {
    expect(plain(applySet(document, set))).toEqual(expected);
  });

  it.each<[string, Document, Document, string]>([
    ['a scalar', { a: 'text' }, { 'a.b': 1 }, '"a" is a string'],
    ['a number inside an object', { a: { n: 1 } }, { 'a.n.m': 1 }, '"a.n" is a number'],
    ['null', { a: null }, { 'a.b': 1 }, '"a" is null'],
    ['a null array slot', { l: [null] }, { 'l.0.n': 1 }, '"l.0" is null'],
    ['a Date', { at: new Date(0) }, { 'at.day': 1 }, '"at" is a date'],
    ['an ObjectId', { ref: new ObjectId() }, { 'ref.x': 1 }, '"ref" is a BSON ObjectId'],
    ['an array by a name', { tags: ['a'] }, { 'tags.first': 1 }, '"tags" is an array'],
    ['an array by an index with a leading zero', { tags: ['a'] }, { 'tags.01': 1 }, '"tags" is an array'],
    ['an array by a negative index', { tags: ['a'] }, { 'tags.-1': 1 }, '"tags" is an array'],
  ])('refuses a dotted key through %s, like MongoDB code 28', (_name, document, set, problem) => {
    const { code, detail } = rejection(document, set);
    expect(code).toBe('invalid_body');
    expect(detail).toContain(problem);
    expect(detail).toContain(JSON.stringify(Object.keys(set)[0]));
  });

  it('refuses a key inside another key, like MongoDB code 40', () => {
    expect(rejection({}, { a: { b: 1 }, 'a.b': 2 })).toEqual({
      code: 'invalid_body',
      detail: 'body: the keys "a" and "a.b" overlap.',
    });
  });

  it('refuses an empty path segment', () => {
    expect(rejection({ a: {} }, { 'a..b': 1 }).code).toBe('invalid_body');
  });

  it(`extends an array by at most ${MAX_ARRAY_PADDING} nulls`, () => {
    const atLimit = applySet({ l: [1] }, { [`l.${MAX_ARRAY_PADDING + 1}`]: 2 }).l as unknown[];
    expect(atLimit).toHaveLength(MAX_ARRAY_PADDING + 2);
    const past = rejection({ l: [1] }, { [`l.${MAX_ARRAY_PADDING + 2}`]: 2 });
    expect(past.code).toBe('invalid_body');
    expect(past.detail).toContain(`more than ${MAX_ARRAY_PADDING} elements`);
    expect(rejection({ l: [] }, { 'l.99999999999999999999': 1 }).code).toBe('invalid_body');
  });

  it('changes neither argument and shares no object with them', () => {
    const document = deepFreeze({ a: { x: 1 }, l: [{ n: 1 }], at: new Date(5), id: new ObjectId() });
    const set = deepFreeze({ 'a.y': 2, 'l.0.m': 3, b: { c: [1] } });
    const result = applySet(document, set);
    expect(result.a).not.toBe(document.a);
    expect(result.l).not.toBe(document.l);
    expect(result.b).not.toBe(set.b);
    expect(result.at).not.toBe(document.at);
    expect(result.at).toEqual(new Date(5));
    expect(result.id).not.toBe(document.id);
    expect((result.id as ObjectId).equals(document.id)).toBe(true);
    expect(plain(document)).toEqual(plain({ a: { x: 1 }, l: [{ n: 1 }], at: new Date(5), id: document.id }));
  });

  it('returns objects without prototypes at every level', () => {
    const result = applySet({ a: { b: [{ c: 1 }] } }, { 'd.e': { f: 1 }, 'a.b.1.g': 2 });
    expect(isPrototypeFreeEverywhere(result)).toBe(true);
  });

  it('keeps __proto__ keys as data, never as a prototype', () => {
    const document = JSON.parse('{"__proto__": {"polluted": true}}') as Document;
    const result = applySet(document, { '__proto__.x': 1 });
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ polluted: true, x: 1 });
    expect(Object.getPrototypeOf(result)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
