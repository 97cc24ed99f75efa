/**
 * The embedded engine's single-field indexes: which filters they serve, and that they stay
 * true through every kind of write (an indexed collection answers exactly like an unindexed
 * copy receiving the same writes).
 */

import type { Document, StoreCollection } from '@store/common';
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { candidateKeys } from '../src/id-lookup';
import { createEmbeddedDb } from '../src/index';
import { CollectionIndexes } from '../src/indexes';
import { idKey } from '../src/values';
import { ids } from './fixtures';
import { picker, prng } from './support/seeded-random';

const OID = new ObjectId('0123456789abcdef01234567');
const VALUES: readonly unknown[] = [1, 2, '1', '2', OID, OID.toHexString(), null, true];

describe('CollectionIndexes.lookup', () => {
  const indexes = new CollectionIndexes();
  const doc = (id: string, fields: Document): [string, Document] => [idKey(id), { _id: id, ...fields }];
  indexes.create({ r: 1 }, {}, [doc('a', { r: 1 }), doc('b', { r: [1, OID] }), doc('c', {})]);
  indexes.create({ 'x.y': 1 }, {}, []);
  indexes.create({ t: 1, u: 1 }, {}, []);

  it.each([
    ['a number, alone or in an array', 'r', [1], [idKey('a'), idKey('b')]],
    ['an ObjectId', 'r', [OID], [idKey('b')]],
    ['null: missing or null', 'r', [null], [idKey('c')]],
    ['nothing for a value no document holds', 'r', ['1'], []],
  ])('finds %s', (_title, field, values, expected) => {
    expect([...(indexes.lookup(field, values) ?? [])].sort()).toEqual(expected);
  });

  it.each([
    ['an unindexed field', 'q', [1]],
    ['a dotted field', 'x.y', [1]],
    ['a compound index', 't', [1]],
    ['a pattern', 'r', [/1/]],
    ['a sub-document', 'r', [{ a: 1 }]],
  ])('does not answer for %s', (_title, field, values) => {
    expect(indexes.lookup(field, values)).toBeUndefined();
  });

  it('follows a document through update and delete', () => {
    const local = new CollectionIndexes();
    local.create({ r: 1 }, {}, []);
    local.move('s:d', undefined, { _id: 'd', r: 2 });
    expect([...(local.lookup('r', [2]) ?? [])]).toEqual(['s:d']);
    local.move('s:d', { _id: 'd', r: 2 }, { _id: 'd', r: [3] });
    expect([...(local.lookup('r', [2, 3]) ?? [])]).toEqual(['s:d']);
    expect(local.lookup('r', [2])?.size).toBe(0);
    local.move('s:d', { _id: 'd', r: [3] }, undefined);
    expect(local.lookup('r', [3])?.size).toBe(0);
  });
});

describe('candidateKeys with a field lookup', () => {
  const lookup = (field: string, values: readonly unknown[]) =>
    field === 'r' ? new Set(values.map((value) => `r:${idKey(value)}`)) : undefined;

  it.each([
    ['an indexed $in', { r: { $in: [1, 2] } }, ['r:n:1', 'r:n:2']],
    ['indexed equality', { r: 1 }, ['r:n:1']],
    ['an $or of pinned clauses: their union', { $or: [{ r: 1 }, { _id: 'a' }] }, [idKey('a'), 'r:n:1']],
    ['$in and $eq ANDed: their intersection', { r: { $in: [1, 2], $eq: 2 } }, ['r:n:2']],
    ['an $and', { $and: [{ r: { $in: [1, 2] } }, { r: 2 }] }, ['r:n:2']],
  ])('narrows %s', (_title, filter, expected) => {
    expect([...(candidateKeys(filter, lookup) ?? [])].sort()).toEqual(expected);
  });

  it.each([
    ['an unindexed field', { q: 1 }],
    ['an $or with one unpinned clause', { $or: [{ r: 1 }, { q: 1 }] }],
    ['a range', { r: { $gt: 1 } }],
    ['$nin', { r: { $nin: [1] } }],
  ])('does not narrow %s', (_title, filter) => {
    expect(candidateKeys(filter, lookup)).toBeUndefined();
  });
});

describe('indexes through writes', () => {
  const random = prng(42);
  const pick = picker(random);
  const id = () => `d${Math.floor(random() * 30)}`;
  const refs = (): Document => {
    const roll = random();
    if (roll < 0.2) return {};
    if (roll < 0.6) return { r: pick(VALUES) };
    return { r: pick(VALUES), rs: [pick(VALUES), pick(VALUES)] };
  };
  const writes: Array<(c: StoreCollection) => Promise<unknown>> = [];
  for (let i = 0; i < 400; i++) {
    const [target, fields, value, pushed] = [id(), refs(), pick(VALUES), pick(VALUES)];
    writes.push(
      pick([
        (c) => c.insertOne({ _id: target, ...fields }).catch(() => undefined),
        (c) => c.updateOne({ _id: target }, { $set: { r: value } }),
        (c) => c.updateOne({ r: value }, { $push: { rs: pushed } }),
        (c) => c.updateOne({ _id: target }, { $unset: { r: '' } }, { upsert: true }),
        (c) => c.findOneAndReplace({ rs: value }, fields, { returnDocument: 'after' }),
        (c) =>
          c.findOneAndUpdate({ _id: target }, { $set: fields }, { returnDocument: 'before', upsert: true }),
        (c) => c.deleteOne({ r: value }),
        (c) => c.deleteMany({ rs: { $in: [value] } }),
      ]),
    );
  }
  const queries: Document[] = [
    { r: { $in: [1, OID] } },
    { r: { $in: ['1', OID.toHexString(), null] } },
    { $or: [{ r: { $in: [1, '2', OID] } }, { rs: { $in: [1, '2', OID] } }] },
    { rs: true },
  ];

  it('answer like an unindexed copy after each of 400 writes, in the same order', async () => {
    const db = createEmbeddedDb();
    const [indexed, plain] = [db.collection('indexed'), db.collection('plain')];
    await indexed.createIndex({ r: 1 });
    await indexed.createIndex({ rs: -1 });
    let compared = 0;
    for (const write of writes) {
      await write(indexed);
      await write(plain);
      for (const query of queries) {
        expect(ids(await indexed.find(query).toArray())).toEqual(ids(await plain.find(query).toArray()));
        compared += 1;
      }
    }
    expect(compared).toBe(1600);
    expect(await indexed.countDocuments({})).toBeGreaterThan(0);
  });
});

describe('candidates found by an index, then sorted', () => {
  it.each([
    ['string ids', ['c', 'a', 'b']],
    ['sub-document ids that tie in the sort', [{ a: 0 }, { a: 1, b: 2 }, { b: 2, a: 1 }]],
  ])('come out like a scan for %s', async (_title, docIds) => {
    const db = createEmbeddedDb();
    const [indexed, plain] = [db.collection('indexed'), db.collection('plain')];
    await indexed.createIndex({ r: 1 });
    for (const collection of [indexed, plain])
      for (const [i, _id] of [...docIds].reverse().entries())
        await collection.insertOne({ _id, r: (i % 2) + 1 });
    const sorts: Record<string, 1 | -1>[] = [{ _id: 1 }, { _id: -1 }, { r: 1, _id: 1 }];
    for (const sort of sorts) {
      const [fromIndex, fromScan] = await Promise.all(
        [indexed, plain].map((collection) => collection.find({ r: { $in: [2, 1] } }, { sort }).toArray()),
      );
      expect(fromIndex).toEqual(fromScan);
      expect(fromIndex).toHaveLength(docIds.length);
    }
  });
});
