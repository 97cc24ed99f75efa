import { describe, expect, it } from 'vitest';
import { documentTest, EmbeddedDbError, projectDocument } from '../src/index';

describe('documentTest', () => {
  it('matches as a collection would: operators, array elements, dotted paths', () => {
    const test = documentTest({ n: { $gte: 2 }, tags: 'x', 'a.b': { $in: [1, 2] } });
    expect(test({ n: 3, tags: ['x', 'y'], a: { b: 2 } })).toBe(true);
    expect(test({ n: 1, tags: ['x'], a: { b: 2 } })).toBe(false);
    expect(test({ n: 3, tags: 'z', a: { b: 2 } })).toBe(false);
    expect(test({ n: 3, tags: 'x', a: [{ b: 5 }, { b: 1 }] })).toBe(true);
  });

  it.each([
    ['an unknown operator', { n: { $bad: 1 } }],
    ['$text (no text index)', { $text: { $search: 'x' } }],
    ['$nearSphere (no 2dsphere index)', { at: { $nearSphere: [0, 0] } }],
  ])('refuses %s with a BadValue error', (_name, filter) => {
    expect(() => documentTest(filter)({ n: 1 })).toThrow(EmbeddedDbError);
  });
});

describe('projectDocument', () => {
  it('keeps the projected paths and _id, leaving the input alone', () => {
    const doc = { _id: 1, a: { b: 1, c: 2 }, d: 3 };
    expect(projectDocument(doc, { 'a.b': 1 })).toEqual({ _id: 1, a: { b: 1 } });
    expect(projectDocument(doc, { d: 0 })).toEqual({ _id: 1, a: { b: 1, c: 2 } });
    expect(doc).toEqual({ _id: 1, a: { b: 1, c: 2 }, d: 3 });
  });
});
