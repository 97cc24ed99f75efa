/**
 * Collation on the embedded engine: strings compared as MongoDB's ICU collation compares them
 * (strength, caseFirst, numericOrdering, the locale's own order) in filters, sorts, counts,
 * updates, deletes and indexes; what `Intl` cannot compute exactly refused by name (238); a
 * regex never collated.
 */

import type { Collation, Document } from '@store/common';
import { describe, expect, it } from 'vitest';
import { parseCollation } from '../src/collation';
import type { EmbeddedCollection } from '../src/index';
import { createEmbeddedDb } from '../src/index';

const EN_2: Collation = { locale: 'en_US', strength: 2 };
const EN_1: Collation = { locale: 'en', strength: 1 };

async function collectionOf(docs: Document[]): Promise<EmbeddedCollection> {
  const coll = createEmbeddedDb().collection('c');
  if (docs.length > 0) await coll.insertMany(docs);
  return coll;
}

const idsOf = (docs: Document[]): unknown[] => docs.map((doc) => doc._id);

const WORDS = [
  { _id: 1, x: 'cafe' },
  { _id: 2, x: 'Café' },
  { _id: 3, x: 'CAFE' },
  { _id: 4, x: 'café' },
  { _id: 5, x: 'tea' },
  { _id: 6, x: 7 },
];

describe('collation in filters', () => {
  it.each([
    ['no collation: binary', undefined, [1]],
    ['strength 1: base letters only', EN_1, [1, 2, 3, 4]],
    ['strength 2: accents count, case does not', EN_2, [1, 3]],
    ['strength 3: accents and case count', { locale: 'en', strength: 3 }, [1]],
    ['simple: binary', { locale: 'simple' }, [1]],
  ] satisfies Array<[string, Collation | undefined, number[]]>)(
    'equality with %s',
    async (_name, collation, expected) => {
      const coll = await collectionOf(WORDS);
      expect(idsOf(await coll.find({ x: 'cafe' }, { collation }).toArray())).toEqual(expected);
    },
  );

  it('$in and $nin compare their members by the collation', async () => {
    const coll = await collectionOf(WORDS);
    const found = await coll.find({ x: { $in: ['CAFÉ', 'TEA'] } }, { collation: EN_2 }).toArray();
    expect(idsOf(found)).toEqual([2, 4, 5]);
    const others = await coll.find({ x: { $nin: ['CAFÉ', 'TEA'] } }, { collation: EN_2 }).toArray();
    expect(idsOf(others)).toEqual([1, 3, 6]);
  });

  it('$ne and ranges on strings follow the collation', async () => {
    const coll = await collectionOf(WORDS);
    expect(idsOf(await coll.find({ x: { $ne: 'CAFE' } }, { collation: EN_1 }).toArray())).toEqual([5, 6]);
    // Binary, 'Café' < 'b'; under the collation 'b' < 'cafe' in every spelling.
    expect(idsOf(await coll.find({ x: { $gt: 'b' } }, { collation: EN_2 }).toArray())).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(idsOf(await coll.find({ x: { $gt: 'b' } }).toArray())).toEqual([1, 4, 5]);
  });

  it('reaches array elements, sub-documents and $elemMatch', async () => {
    const coll = await collectionOf([
      { _id: 1, tags: ['Red', 'blue'] },
      { _id: 2, tags: ['green'] },
      { _id: 3, sub: { name: 'ANN' } },
      { _id: 4, items: [{ name: 'Bob', n: 2 }] },
    ]);
    const collation = EN_2;
    expect(idsOf(await coll.find({ tags: 'red' }, { collation }).toArray())).toEqual([1]);
    expect(idsOf(await coll.find({ sub: { name: 'ann' } }, { collation }).toArray())).toEqual([3]);
    expect(idsOf(await coll.find({ 'sub.name': 'ann' }, { collation }).toArray())).toEqual([3]);
    const elem = { items: { $elemMatch: { name: 'BOB', n: { $gte: 2 } } } };
    expect(idsOf(await coll.find(elem, { collation }).toArray())).toEqual([4]);
    expect(idsOf(await coll.find({ tags: { $all: ['RED', 'BLUE'] } }, { collation }).toArray())).toEqual([1]);
  });

  it('numericOrdering compares digits as numbers', async () => {
    const coll = await collectionOf([
      { _id: 1, v: '10' },
      { _id: 2, v: '9' },
    ]);
    const numeric = { locale: 'en', numericOrdering: true };
    expect(idsOf(await coll.find({ v: { $gt: '9' } }, { collation: numeric }).toArray())).toEqual([1]);
    expect(idsOf(await coll.find({ v: { $gt: '9' } }).toArray())).toEqual([]);
    expect(idsOf(await coll.find({}, { sort: { v: 1 }, collation: numeric }).toArray())).toEqual([2, 1]);
  });

  it('$regex ignores the collation', async () => {
    const coll = await collectionOf(WORDS);
    expect(idsOf(await coll.find({ x: { $regex: '^caf' } }, { collation: EN_1 }).toArray())).toEqual([1, 4]);
    expect(idsOf(await coll.find({ x: /^CAFE$/ }, { collation: EN_1 }).toArray())).toEqual([3]);
  });

  it('leaves values other than strings as they compare without it', async () => {
    const coll = await collectionOf(WORDS);
    expect(idsOf(await coll.find({ x: 7 }, { collation: EN_1 }).toArray())).toEqual([6]);
    expect(idsOf(await coll.find({ x: { $gte: 0 } }, { collation: EN_1 }).toArray())).toEqual([6]);
  });
});

describe('collation in sorts', () => {
  it('sorts in the locale order (Swedish ä after z)', async () => {
    const coll = await collectionOf([
      { _id: 1, w: 'ä' },
      { _id: 2, w: 'z' },
      { _id: 3, w: 'a' },
    ]);
    const sorted = await coll.find({}, { sort: { w: 1 }, collation: { locale: 'sv' } }).toArray();
    expect(sorted.map((doc) => doc.w)).toEqual(['a', 'z', 'ä']);
    const german = await coll.find({}, { sort: { w: 1 }, collation: { locale: 'de' } }).toArray();
    expect(german.map((doc) => doc.w)).toEqual(['a', 'ä', 'z']);
  });

  it('caseFirst upper puts capitals first', async () => {
    const coll = await collectionOf([
      { _id: 1, w: 'b' },
      { _id: 2, w: 'B' },
      { _id: 3, w: 'a' },
    ]);
    const upper = await coll
      .find({}, { sort: { w: 1 }, collation: { locale: 'en', caseFirst: 'upper' } })
      .toArray();
    expect(upper.map((doc) => doc.w)).toEqual(['a', 'B', 'b']);
    const lower = await coll
      .find({}, { sort: { w: 1 }, collation: { locale: 'en', caseFirst: 'lower' } })
      .toArray();
    expect(lower.map((doc) => doc.w)).toEqual(['a', 'b', 'B']);
    const binary = await coll.find({}, { sort: { w: 1 } }).toArray();
    expect(binary.map((doc) => doc.w)).toEqual(['B', 'a', 'b']);
  });

  it('keeps BSON type order across types and ties equal strings in insertion order', async () => {
    const coll = await collectionOf(WORDS);
    const sorted = await coll.find({}, { sort: { x: -1 }, collation: EN_1 }).toArray();
    expect(idsOf(sorted)).toEqual([5, 1, 2, 3, 4, 6]);
  });

  it('sorts past the index of the sort key (the index orders strings binary)', async () => {
    const docs = Array.from({ length: 3000 }, (_, i) => ({ _id: i, w: i % 2 === 0 ? `b${i}` : `A${i}` }));
    const coll = await collectionOf(docs);
    await coll.createIndex({ w: 1 });
    const first = await coll.find({}, { sort: { w: 1 }, limit: 1, collation: { locale: 'en' } }).toArray();
    expect(first.map((doc) => doc.w)).toEqual(['A1']);
    const binary = await coll.find({}, { sort: { w: 1 }, limit: 1 }).toArray();
    expect(binary.map((doc) => doc.w)).toEqual(['A1']);
    const last = await coll.find({}, { sort: { w: -1 }, limit: 1, collation: { locale: 'en' } }).toArray();
    expect(last.map((doc) => doc.w)).toEqual(['b998']);
  });
});

describe('collation over many documents', () => {
  const many = Array.from({ length: 3000 }, (_, i) => ({ _id: i, w: `${i % 2 === 0 ? 'b' : 'B'}${i % 7}` }));
  const collator = new Intl.Collator('en', { sensitivity: 'variant' });

  it('sorts them whole (in slices) as the collator orders them, ties in insertion order', async () => {
    const coll = await collectionOf(many);
    const sorted = await coll.find({}, { sort: { w: 1 }, collation: { locale: 'en' } }).toArray();
    const expected = [...many].sort((a, b) => collator.compare(a.w, b.w) || a._id - b._id);
    expect(idsOf(sorted)).toEqual(idsOf(expected));
  });

  it('finds equal strings past a single-field index', async () => {
    const coll = await collectionOf(many);
    await coll.createIndex({ w: 1 });
    expect(await coll.countDocuments({ w: 'b0' }, { collation: EN_2 })).toBe(
      many.filter((doc) => doc.w.toLowerCase() === 'b0').length,
    );
    expect(await coll.countDocuments({ w: { $in: ['B1'] } }, { collation: EN_2 })).toBe(
      many.filter((doc) => doc.w.toLowerCase() === 'b1').length,
    );
    expect(await coll.countDocuments({ w: 'b0' })).toBe(many.filter((doc) => doc.w === 'b0').length);
  });
});

describe('collation in counts and writes', () => {
  it('countDocuments counts by the collation', async () => {
    const coll = await collectionOf(WORDS);
    expect(await coll.countDocuments({ x: 'CAFE' }, { collation: EN_2 })).toBe(2);
    expect(await coll.countDocuments({ x: 'CAFE' })).toBe(1);
  });

  it('updateOne, updateMany and findOneAndUpdate match by the collation', async () => {
    const coll = await collectionOf(WORDS);
    const one = await coll.updateOne({ x: 'CAFÉ' }, { $set: { y: 1 } }, { collation: EN_2 });
    expect(one).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    const many = await coll.updateMany({ x: 'CAFE' }, { $set: { y: 2 } }, { collation: EN_1 });
    expect(many).toMatchObject({ matchedCount: 4, modifiedCount: 4 });
    const found = await coll.findOneAndUpdate(
      { x: 'TEA' },
      { $set: { y: 3 } },
      { collation: EN_2, returnDocument: 'after' },
    );
    expect(found).toEqual({ _id: 5, x: 'tea', y: 3 });
  });

  it('findOneAndReplace takes the first by a collated sort', async () => {
    const coll = await collectionOf([
      { _id: 1, x: 'b' },
      { _id: 2, x: 'B' },
      { _id: 3, x: 'a' },
    ]);
    const before = await coll.findOneAndReplace(
      { x: { $gte: 'A' } },
      { x: 'first' },
      { sort: { x: 1 }, collation: { locale: 'en', caseFirst: 'upper' } },
    );
    expect(before).toEqual({ _id: 3, x: 'a' });
  });

  it('positional $ updates the element the collated filter matched', async () => {
    const coll = await collectionOf([{ _id: 1, tags: ['x', 'Red', 'blue'] }]);
    await coll.updateOne({ tags: 'RED' }, { $set: { 'tags.$': 'green' } }, { collation: EN_2 });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, tags: ['x', 'green', 'blue'] });
  });

  it.each([
    ['$addToSet of a string', { $addToSet: { tags: 'RED' } }, {}, '$addToSet'],
    ['$pull of a string', { $pull: { tags: 'RED' } }, {}, '$pull'],
    ['$pullAll of strings', { $pullAll: { tags: ['RED'] } }, {}, '$pullAll'],
    ['$min of a string', { $min: { name: 'a' } }, {}, '$min'],
    ['$max of a string', { $max: { name: 'a' } }, {}, '$max'],
    ['$push with $sort', { $push: { tags: { $each: [], $sort: 1 } } }, {}, '$push with $sort'],
    [
      'arrayFilters on strings',
      { $set: { 'tags.$[t]': 'z' } },
      { arrayFilters: [{ t: 'RED' }] },
      'arrayFilters',
    ],
    ['an update pipeline', [{ $set: { name: 'a' } }], {}, 'an update pipeline'],
  ])(
    'refuses %s under a collation by name (the updater compares strings binary)',
    async (_name, update, options, named) => {
      const coll = await collectionOf([{ _id: 1, tags: ['red'], name: 'b' }]);
      const attempt = coll.updateOne({ _id: 1 }, update as never, { ...options, collation: EN_2 } as never);
      await expect(attempt).rejects.toMatchObject({ code: 238, message: expect.stringContaining(named) });
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, tags: ['red'], name: 'b' });
    },
  );

  it('runs updates comparing no string under a collation', async () => {
    const coll = await collectionOf([{ _id: 1, tags: ['red'], n: 5 }]);
    await coll.updateOne({ tags: 'RED' }, { $max: { n: 7 }, $addToSet: { tags: 3 } }, { collation: EN_2 });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, tags: ['red', 3], n: 7 });
  });

  it('deleteOne and deleteMany match by the collation', async () => {
    const coll = await collectionOf(WORDS);
    expect(await coll.deleteOne({ x: 'TEA' }, { collation: EN_2 })).toEqual({ deletedCount: 1 });
    expect(await coll.deleteMany({ x: 'CAFE' }, { collation: EN_1 })).toEqual({ deletedCount: 4 });
    expect(idsOf(await coll.find({}).toArray())).toEqual([6]);
  });

  it('an _id string is matched by the collation too (not found through the _id index)', async () => {
    const coll = await collectionOf([{ _id: 'Ann' }, { _id: 'bob' }]);
    expect(idsOf(await coll.find({ _id: 'ann' }, { collation: EN_2 }).toArray())).toEqual(['Ann']);
    expect(idsOf(await coll.find({ _id: 'ann' }).toArray())).toEqual([]);
  });
});

describe('indexes with a collation', () => {
  it('records the collation, resolved, and lists it', async () => {
    const coll = await collectionOf([]);
    await coll.createIndex({ x: 1 }, { collation: EN_2 } as never);
    const [, index] = await coll.listIndexes().toArray();
    expect(index).toMatchObject({
      key: { x: 1 },
      name: 'x_1',
      collation: {
        locale: 'en_US',
        caseLevel: false,
        caseFirst: 'off',
        strength: 2,
        numericOrdering: false,
        alternate: 'non-ignorable',
        maxVariable: 'punct',
        normalization: false,
        backwards: false,
        version: '57.1',
      },
    });
  });

  it('answers queries with or without a collation from the documents, never from the index order', async () => {
    const coll = await collectionOf(WORDS);
    await coll.createIndex({ x: 1 }, { collation: EN_2 } as never);
    expect(idsOf(await coll.find({ x: 'CAFE' }).toArray())).toEqual([3]);
    expect(idsOf(await coll.find({ x: 'CAFE' }, { collation: EN_2 }).toArray())).toEqual([1, 3]);
    expect(idsOf(await coll.find({ x: 'CAFE' }, { collation: EN_1 }).toArray())).toEqual([1, 2, 3, 4]);
  });

  it('allows the same key under another collation and name', async () => {
    const coll = await collectionOf([]);
    await coll.createIndex({ x: 1 });
    await coll.createIndex({ x: 1 }, { name: 'x_fr', collation: { locale: 'fr' } } as never);
    expect((await coll.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'x_1', 'x_fr']);
  });

  it.each([
    ['a text index (MongoDB refuses it)', { t: 'text' }, {}, 67],
    ['a unique index (not implemented)', { u: 1 }, { unique: true }, 238],
  ])('refuses a collation on %s', async (_name, spec, options, code) => {
    const coll = await collectionOf([]);
    await expect(
      coll.createIndex(spec as never, { ...options, collation: EN_2 } as never),
    ).rejects.toMatchObject({
      code,
    });
  });
});

describe('parseCollation', () => {
  it('reads no collation and simple as binary comparison', () => {
    expect(parseCollation(undefined)).toBeUndefined();
    expect(parseCollation({ locale: 'simple' })).toBeUndefined();
  });

  it.each([
    ['no locale', {}, 4, 'Missing expected field "locale"'],
    ['a locale not a string', { locale: 1 }, 14, '"locale" had the wrong type'],
    ['an empty locale', { locale: '' }, 2, 'cannot be the empty string'],
    ['an unknown locale', { locale: 'xx' }, 2, "Field 'locale' is invalid"],
    ['a locale ICU would fall back from', { locale: 'en_GB' }, 2, "Field 'locale' is invalid"],
    ['simple with other fields', { locale: 'simple', strength: 1 }, 9, 'no other fields'],
    ['a strength out of range', { locale: 'en', strength: 6 }, 9, 'must be an integer 1 through 5'],
    ['a strength not a number', { locale: 'en', strength: '2' }, 14, 'numeric type'],
    ['a caseFirst not named', { locale: 'en', caseFirst: 'first' }, 9, "Field 'caseFirst' must be"],
    ['an alternate not named', { locale: 'en', alternate: 'x' }, 9, "Field 'alternate' must be"],
    ['a caseLevel not a boolean', { locale: 'en', caseLevel: 1 }, 14, '"caseLevel" had the wrong type'],
    ['an unknown field', { locale: 'en', colour: 1 }, 9, 'unknown field'],
    [
      'caseFirst at strength 1',
      { locale: 'en', strength: 1, caseFirst: 'upper' },
      2,
      "'caseFirst' is invalid",
    ],
    ['backwards at strength 1', { locale: 'en', strength: 1, backwards: true }, 2, "'backwards' is invalid"],
    ['another ICU version', { locale: 'en', version: '1.0' }, 161, 'Requested collation version'],
  ])('refuses %s as MongoDB does', (_name, spec, code, message) => {
    expect(() => parseCollation(spec)).toThrow(expect.objectContaining({ code }));
    expect(() => parseCollation(spec)).toThrow(message);
  });

  it.each([
    ['strength 4', { locale: 'en', strength: 4 }, 'strength 4'],
    ['strength 5', { locale: 'en', strength: 5 }, 'strength 5'],
    ['caseLevel above strength 1', { locale: 'en', caseLevel: true, strength: 2 }, 'caseLevel'],
    ['backwards where the locale has it off', { locale: 'en', backwards: true }, 'backwards'],
    ['backwards off where the locale has it on', { locale: 'fr_CA', backwards: false }, 'backwards'],
    [
      "maxVariable 'space' with alternate 'shifted'",
      { locale: 'en', alternate: 'shifted', maxVariable: 'space' },
      'maxVariable',
    ],
  ])('refuses %s by name (NotImplemented)', (_name, spec, named) => {
    expect(() => parseCollation(spec)).toThrow(expect.objectContaining({ code: 238 }));
    expect(() => parseCollation(spec)).toThrow(named);
  });

  it('accepts what Intl computes exactly', () => {
    expect(parseCollation({ locale: 'en', caseLevel: true, strength: 1 })?.compareStrings('a', 'A')).not.toBe(
      0,
    );
    expect(parseCollation({ locale: 'en', caseLevel: true, strength: 1 })?.compareStrings('a', 'á')).toBe(0);
    expect(parseCollation({ locale: 'en', alternate: 'shifted' })?.compareStrings('a-b', 'ab')).toBe(0);
    expect(parseCollation({ locale: 'fr_CA', backwards: true })?.spec.backwards).toBe(true);
    // The German phonebook order spells ä as ae; the standard one as a.
    expect(parseCollation({ locale: 'de@collation=phonebook', strength: 1 })?.compareStrings('ä', 'ae')).toBe(
      0,
    );
    expect(parseCollation({ locale: 'de', strength: 1 })?.compareStrings('ä', 'a')).toBe(0);
  });

  it('refuses $expr under a collation by name', async () => {
    const coll = await collectionOf(WORDS);
    await expect(
      coll.find({ $expr: { $eq: ['$x', 'CAFE'] } }, { collation: EN_2 }).toArray(),
    ).rejects.toMatchObject({ code: 238 });
  });
});
