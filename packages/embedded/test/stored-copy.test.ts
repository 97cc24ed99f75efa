/**
 * `toStored` copies a document as the driver stores it: the same values, types, key order and
 * refusals as a BSON round trip, whether it copies the document directly (plain values,
 * ObjectIds, valid dates) or through the round trip (everything else). `insertHandedOver`
 * keeps such a document itself instead of copying it, and answers as `insertMany` does.
 */
import { createEmbeddedDb, type EmbeddedCollection } from '@store/embedded';
import { Binary, BSON, Decimal128, Long, ObjectId } from 'bson';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asBadValue } from '../src/errors';
import { toStored } from '../src/values';
import { jsonScalars, ownObject } from './support/value-arbitraries';

/** The BSON round trip `toStored` stands for. */
const roundTrip = (doc: object): unknown =>
  asBadValue('document', () => BSON.deserialize(BSON.serialize(doc, { ignoreUndefined: false })));

/** A value written out with every detail a copy must keep: types, -0, key order, prototypes. */
function shape(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? 'number:-0' : `number:${value}`;
  if (typeof value !== 'object' || value === null) return `${typeof value}:${JSON.stringify(value)}`;
  if (Array.isArray(value)) {
    const items = Array.from({ length: value.length }, (_, i) => (i in value ? shape(value[i]) : 'hole'));
    return `[${items.join(',')}]`;
  }
  if (value instanceof ObjectId) return `ObjectId(${value.toHexString()})${value.constructor === ObjectId}`;
  if (value instanceof Date) return `Date(${value.getTime()})`;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype) return `${proto?.constructor?.name}:${BSON.EJSON.stringify({ v: value })}`;
  const members = Object.keys(value).map(
    (key) => `${JSON.stringify(key)}:${shape((value as Record<string, unknown>)[key])}`,
  );
  return `{${members.join(',')}}`;
}

/** What an attempt answers: the shape of its value, or its error's message. */
function outcome(attempt: () => unknown): string {
  try {
    return shape(attempt());
  } catch (error) {
    return `error:${(error as Error).message}`;
  }
}

const KEYS = [
  'a',
  'b',
  '_id',
  '0',
  '10',
  '__proto__',
  '$a',
  'a.b',
  '_bsontype',
  'toBSON',
  'x\0y',
  '\ud800',
  '😀',
];

const leaf = fc.oneof(
  ...jsonScalars,
  fc.constantFrom(0, -0, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY),
  fc.constant(undefined),
  fc.constant(new ObjectId('64b7f0c2a1b2c3d4e5f60718')),
  fc.constantFrom(new Date(0), new Date(1_700_000_000_123), new Date(Number.NaN)),
  fc.constantFrom(Long.fromNumber(5), Decimal128.fromString('1.5'), new Binary(Buffer.from('ab')), /a/i),
);

const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.oneof(fc.array(tie('value'), { maxLength: 3 }), fc.sparseArray(tie('value'), { maxLength: 3 })),
  object: fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 3 })), tie('value')), {
      maxLength: 4,
    })
    .map(ownObject),
}));

describe('toStored', () => {
  it('answers as the BSON round trip on generated documents (values, types, key order, refusals)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 5 }), (doc) => {
        expect(outcome(() => toStored(doc))).toBe(outcome(() => roundTrip(doc)));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['-0 stays -0', { a: -0 }],
    ['an invalid date', { a: new Date(Number.NaN) }],
    ['undefined in an array', { a: [1, undefined] }],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case.
    ['an array hole', { a: [1, , 2] }],
    ['a lone surrogate', { a: 'x\udc00' }],
    ['a $ key', { a: { $ref: 'c', $id: 1 } }],
    ['a NUL in a key', { 'a\0': 1 }],
    ['an own __proto__ member', JSON.parse('{"__proto__": {"a": 1}}')],
    ['deep nesting', JSON.parse(`${'{"a":'.repeat(120)}1${'}'.repeat(120)}`)],
    ['a long string', { a: 'x'.repeat(2 * 1024 * 1024) }],
  ])('answers as the round trip for %s', (_name, doc) => {
    expect(outcome(() => toStored(doc))).toBe(outcome(() => roundTrip(doc)));
  });

  it('answers as the round trip while Object.prototype holds an enumerable member', () => {
    const doc = { a: 1, inner: { b: [2] } };
    (Object.prototype as Record<string, unknown>).polluting = 'x';
    try {
      expect(outcome(() => toStored(doc))).toBe(outcome(() => roundTrip(doc)));
      expect(Object.hasOwn(toStored(doc), 'polluting')).toBe(false);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluting;
    }
  });

  it('still refuses a key once keys like it were found plain (the found ones are remembered)', () => {
    for (let i = 0; i < 5000; i++) toStored({ [`k${i}`]: 1 });
    for (const doc of [{ $k: 1 }, { 'k\0': 1 }, { k: { toBSON: 1 } }, { 'k\udc00': 1 }]) {
      expect(outcome(() => toStored(doc))).toBe(outcome(() => roundTrip(doc)));
    }
  });

  it('shares no object or array with the document it copies', () => {
    const doc = { _id: 'a', tags: ['x'], inner: { n: 1 }, at: new Date(5), ref: new ObjectId() };
    const stored = toStored(doc);
    expect(stored).toEqual(doc);
    for (const key of ['tags', 'inner', 'at', 'ref'] as const) expect(stored[key]).not.toBe(doc[key]);
  });
});

describe('insertHandedOver', () => {
  it('keeps a document already as stored itself, and stores a copy of one that is not', async () => {
    const collection = createEmbeddedDb().collection('handed');
    const plain = { _id: 'a', tags: ['x'], at: new Date(5), ref: new ObjectId() };
    const withUndefined = { _id: 'b', gone: undefined };
    await collection.insertHandedOver([plain, withUndefined]);
    const [first, second] = collection.image().docs;
    expect(first).toBe(plain);
    expect(second).not.toBe(withUndefined);
    expect(second).toEqual({ _id: 'b', gone: null });
  });

  it('answers and fails as insertMany does', async () => {
    const db = createEmbeddedDb();
    const docs = () => [{ _id: 1 }, { _id: 2 }, { _id: 1 }, { _id: 3 }];
    const outcomes = await Promise.all(
      [
        (collection: EmbeddedCollection) => collection.insertMany(docs()),
        (collection: EmbeddedCollection) => collection.insertHandedOver(docs()),
      ].map((insert, i) =>
        insert(db.collection(`c${i}`)).then(
          (result) => result,
          (error: { writeErrors?: unknown; result?: unknown; message: string }) => ({
            message: error.message,
            writeErrors: error.writeErrors,
            result: error.result,
          }),
        ),
      ),
    );
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(await db.collection('c1').countDocuments({})).toBe(2);
  });
});
