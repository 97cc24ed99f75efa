/**
 * Reference fields under `$in` / equality, as `$populate` asks for them: strings, numbers and
 * ObjectIds compared as MongoDB compares them, with and without a single-field index (the
 * embedded engine answers from its index when the filter pins an indexed field).
 */

import type { Document, StoreCollection } from '@store/common';
import { describeEngines } from '@store/test-kit';
import { ObjectId } from 'bson';
import { beforeAll, expect, it } from 'vitest';
import { ids } from './fixtures';

const HEX = '0123456789abcdef01234567';
const OID = new ObjectId(HEX);

const DOCS: readonly Document[] = [
  { _id: 'n1', company_id: 1 },
  { _id: 's1', company_id: '1' },
  { _id: 'oid', company_id: OID },
  { _id: 'hex', company_id: HEX },
  { _id: 'many', company_ids: [1, OID] },
  { _id: 'strs', company_ids: ['1', HEX] },
  { _id: 'nul', company_id: null },
  { _id: 'none' },
  { _id: 'date', company_id: new Date(0) },
  { _id: 'bool', company_id: true },
];

const either = (values: unknown[]): Document => ({
  $or: [{ company_id: { $in: values } }, { company_ids: { $in: values } }],
});

describeEngines('reference fields under $in and equality', (engine) => {
  const collections: Record<'indexed' | 'plain', StoreCollection> = {} as never;
  beforeAll(async () => {
    const db = await engine.createDb();
    for (const name of ['indexed', 'plain'] as const) {
      collections[name] = db.collection(name);
      for (const doc of DOCS) await collections[name].insertOne(doc);
    }
    await collections.indexed.createIndex({ company_id: 1 });
    await collections.indexed.createIndex({ company_ids: 1 });
  });

  it.each([
    ['a number', { company_id: { $in: [1] } }, ['n1']],
    ['a number by equality', { company_id: 1 }, ['n1']],
    ['a numeric string by $eq', { company_id: { $eq: '1' } }, ['s1']],
    ['an ObjectId, not its hex string', { company_id: { $in: [OID] } }, ['oid']],
    ['a hex string, not the ObjectId', { company_id: { $in: [HEX] } }, ['hex']],
    ['an element of an array', { company_ids: { $in: [1] } }, ['many']],
    ['an element of an array by equality', { company_ids: 1 }, ['many']],
    ['either field, numbers and ObjectIds', either([1, OID]), ['n1', 'oid', 'many']],
    ['either field, strings', either(['1', HEX]), ['s1', 'hex', 'strs']],
    ['null: missing or null', { company_id: { $in: [null] } }, ['many', 'strs', 'nul', 'none']],
    ['null by equality', { company_id: null }, ['many', 'strs', 'nul', 'none']],
    ['a regex member', { company_id: { $in: [/^1/] } }, ['s1']],
    ['$nin', { company_id: { $nin: [1, '1', null] } }, ['oid', 'hex', 'date', 'bool']],
    ['a Date and a boolean', { company_id: { $in: [new Date(0), true] } }, ['date', 'bool']],
    ['two $in ANDed', { $and: [{ company_id: { $in: [1, '1'] } }, { company_id: { $in: ['1'] } }] }, ['s1']],
    ['ANDed with _id', { company_id: { $in: [1, '1'] }, _id: { $in: ['n1', 'hex'] } }, ['n1']],
    ['ANDed with another condition', { ...either([1, '1']), _id: { $gt: 'n' } }, ['n1', 's1', 'strs']],
    ['an empty list', { company_id: { $in: [] } }, []],
  ])('%s', async (_title, filter, expected) => {
    for (const collection of Object.values(collections)) {
      expect(ids(await collection.find(filter, { sort: { _id: 1 } }).toArray())).toEqual(
        [...expected].sort(),
      );
      expect(await collection.countDocuments(filter)).toBe(expected.length);
    }
  });
});
