import { isStoreError } from '@store/common';
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, sanitizeDocument } from './body-rules';

function rejection(value: unknown, dottedKeys = false): { code: string; detail: string } {
  try {
    sanitizeDocument(value, dottedKeys);
  } catch (error) {
    if (isStoreError(error)) return { code: error.code, detail: error.detail };
    throw error;
  }
  throw new Error('expected sanitizeDocument to throw');
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('sanitizeDocument', () => {
  it('copies a JSON object into prototype-free objects at every level', () => {
    const doc = sanitizeDocument(JSON.parse('{"a":{"b":[{"c":1}]},"s":"x","n":null,"t":true}'));
    expect(Object.getPrototypeOf(doc)).toBeNull();
    const a = doc.a as { b: Array<Record<string, unknown>> };
    expect(Object.getPrototypeOf(a)).toBeNull();
    expect(Object.getPrototypeOf(a.b[0])).toBeNull();
    expect(JSON.parse(JSON.stringify(doc))).toEqual({ a: { b: [{ c: 1 }] }, s: 'x', n: null, t: true });
  });

  it('never changes nor shares the caller’s object', () => {
    const input = deepFreeze({ a: { b: [1, { c: 2 }] }, when: { $date: '2024-01-02T03:04:05Z' } });
    const before = JSON.stringify(input);
    const doc = sanitizeDocument(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(doc.a).not.toBe(input.a);
    expect((doc.a as { b: unknown }).b).not.toBe(input.a.b);
  });

  it.each([
    [{ $date: '2024-01-02T03:04:05.000Z' }, new Date('2024-01-02T03:04:05.000Z')],
    [{ $date: 1_700_000_000_000 }, new Date(1_700_000_000_000)],
    [{ $date: { $numberLong: '1700000000000' } }, new Date(1_700_000_000_000)],
  ])('reads Extended JSON %j as a Date', (value, expected) => {
    const doc = sanitizeDocument({ at: value, list: [value] });
    expect(doc.at).toBeInstanceOf(Date);
    expect(doc.at).toEqual(expected);
    expect((doc.list as unknown[])[0]).toEqual(expected);
  });

  it('reads {"$oid": ...} as an ObjectId', () => {
    const doc = sanitizeDocument({ ref: { $oid: '507f1f77bcf86cd799439011' } });
    expect(doc.ref).toBeInstanceOf(ObjectId);
    expect((doc.ref as ObjectId).toHexString()).toBe('507f1f77bcf86cd799439011');
  });

  it.each([
    ['a top-level array', [1, 2]],
    ['null', null],
    ['a string', 'text'],
    ['a number', 5],
    ['a top-level Extended JSON date', { $date: '2024-01-01T00:00:00Z' }],
  ])('rejects %s: the body must be an object', (_, value) => {
    expect(rejection(value).code).toBe('invalid_body');
  });

  it.each([
    ['a $ key', { $where: 'x' }, '"$where"'],
    ['a nested $ key', { a: { $gt: 1 } }, '"$gt"'],
    ['a $ key inside an array', { a: [{ $set: 1 }] }, '"$set"'],
    ['$date beside another key', { at: { $date: '2024-01-01T00:00:00Z', x: 1 } }, '"$date"'],
    ['an unparsable $date', { at: { $date: 'not a date' } }, '$date'],
    ['a $oid that is not 24 hex digits', { ref: { $oid: 'xyz' } }, '$oid'],
    ['another Extended JSON type', { n: { $numberDecimal: '1.5' } }, '"$numberDecimal"'],
    ['a key containing NUL', { 'a\u0000b': 1 }, 'NUL'],
    ['a nested key containing NUL', { a: { 'x\u0000': 1 } }, 'NUL'],
    ['a __proto__ key', JSON.parse('{"__proto__":{"polluted":true}}'), '"__proto__"'],
    ['a nested __proto__ key', JSON.parse('{"a":{"__proto__":{"polluted":true}}}'), '"__proto__"'],
    ['a constructor key', JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'), '"constructor"'],
    ['a prototype key', { a: { prototype: 1 } }, '"prototype"'],
    ['a dotted key in a document', { 'a.b': 1 }, '"a.b"'],
    ['a nested dotted key', { a: { 'b.c': 1 } }, '"b.c"'],
    ['a non-finite number', { n: Number.POSITIVE_INFINITY }, 'finite'],
    ['a non-JSON value', { when: new Date() }, 'JSON'],
  ])('rejects %s with invalid_body', (_, value, mention) => {
    const error = rejection(value);
    expect(error.code).toBe('invalid_body');
    expect(error.detail).toContain(mention);
  });

  it('never lets a __proto__ or constructor key reach a prototype', () => {
    for (const text of ['{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}']) {
      expect(() => sanitizeDocument(JSON.parse(text))).toThrow();
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it(`accepts nesting up to ${MAX_BODY_DEPTH} levels and rejects deeper`, () => {
    expect(() => sanitizeDocument(nested(MAX_BODY_DEPTH - 1))).not.toThrow();
    expect(rejection(nested(MAX_BODY_DEPTH + 1)).detail).toContain(`deeper than ${MAX_BODY_DEPTH}`);
  });

  describe('with dotted keys (PATCH)', () => {
    it('accepts dotted top-level keys', () => {
      expect({ ...sanitizeDocument({ 'author.name': 'Ann', title: 'x' }, true) }).toEqual({
        'author.name': 'Ann',
        title: 'x',
      });
    });

    it.each([
      ['an empty segment', { 'a..b': 1 }],
      ['a segment starting with $', { 'a.$b': 1 }],
      ['a __proto__ segment', { 'a.__proto__.x': 1 }],
      ['a constructor segment', { 'constructor.prototype.x': 1 }],
      ['a path over 200 characters', { [`${'a.'.repeat(100)}b`]: 1 }],
      ['a dotted key below the top level', { a: { 'b.c': 1 } }],
    ])('rejects %s', (_, value) => {
      expect(rejection(value, true).code).toBe('invalid_body');
    });
  });
});
