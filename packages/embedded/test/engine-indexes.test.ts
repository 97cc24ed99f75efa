/**
 * Reference fields under `$in` / equality, as `$populate` asks for them: strings, numbers and
 * ObjectIds compared as MongoDB compares them, with and without a single-field index (the
 * embedded engine answers from its index when the filter pins an indexed field).
 * Then listIndexes and dropIndex: indexes described as MongoDB describes them, and the conflicts
 * it reports when one is created again in another shape.
 */

import type { Document, IndexSpec, StoreCollection, StoreDb } from '@store/common';
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

/** An index description without the fields a server may add and the order of options. */
const described = (indexes: Document[]): Document[] =>
  indexes.map(({ ns: _ns, ...index }) => index).sort((a, b) => String(a.name).localeCompare(String(b.name)));

describeEngines('listIndexes and dropIndex', (engine) => {
  let db: StoreDb;
  beforeAll(async () => {
    db = await engine.createDb();
  });

  it('describes every index as MongoDB does, _id_ first', async () => {
    const posts = db.collection('described');
    await posts.insertOne({ _id: 1 });
    await posts.createIndex({ title: 'text', body: 'text' }, { name: 'search', language_override: 'lang_' });
    await posts.createIndex({ at: '2dsphere' });
    await posts.createIndex({ email: 1 }, { unique: true, sparse: true });
    await posts.createIndex({ seen: -1 }, { expireAfterSeconds: 60 });
    const indexes = await posts.listIndexes().toArray();
    expect(indexes[0]).toMatchObject({ v: 2, key: { _id: 1 }, name: '_id_' });
    expect(described(indexes)).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { at: '2dsphere' }, name: 'at_2dsphere', '2dsphereIndexVersion': 3 },
      { v: 2, key: { email: 1 }, name: 'email_1', unique: true, sparse: true },
      {
        v: 2,
        key: { _fts: 'text', _ftsx: 1 },
        name: 'search',
        weights: { body: 1, title: 1 },
        default_language: 'english',
        language_override: 'lang_',
        textIndexVersion: 3,
      },
      { v: 2, key: { seen: -1 }, name: 'seen_-1', expireAfterSeconds: 60 },
    ]);
  });

  it('drops an index by name, and its uniqueness with it', async () => {
    const people = db.collection('dropped');
    await people.createIndex({ email: 1 }, { unique: true });
    await people.insertOne({ _id: 1, email: 'a@example.com' });
    await expect(people.insertOne({ _id: 2, email: 'a@example.com' })).rejects.toMatchObject({ code: 11000 });
    await people.dropIndex('email_1');
    expect((await people.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_']);
    await people.insertOne({ _id: 2, email: 'a@example.com' });
    expect(await people.countDocuments({ email: 'a@example.com' })).toBe(2);
  });

  it('finds by a field whose index was dropped', async () => {
    const things = db.collection('unindexed');
    await things.createIndex({ tag: 1 });
    await things.insertOne({ _id: 1, tag: 'a' });
    await things.dropIndex('tag_1');
    await things.insertOne({ _id: 2, tag: 'a' });
    expect(ids(await things.find({ tag: { $in: ['a'] } }, { sort: { _id: 1 } }).toArray())).toEqual([1, 2]);
  });

  it('refuses to drop an index that does not exist (27) or _id_ (72)', async () => {
    const things = db.collection('refusals');
    await things.insertOne({ _id: 1 });
    await expect(things.dropIndex('nope_1')).rejects.toMatchObject({ code: 27 });
    await expect(things.dropIndex('_id_')).rejects.toMatchObject({ code: 72 });
  });

  it.each([
    ['other text fields under the same name', { body: 'text' }, { name: 'search' }, 85],
    ['another default_language', { title: 'text' }, { name: 'search', default_language: 'french' }, 85],
    ['another language_override', { title: 'text' }, { name: 'search', language_override: 'idiom' }, 85],
    ['the same text index under another name', { title: 'text' }, { name: 'other' }, 85],
    ['other keys under the text index name', { title: 1 }, { name: 'search' }, 86],
  ])('refuses a text index again with %s', async (_title, spec, options, code) => {
    const posts = db.collection(`text_${code}_${Object.keys(options).join('_')}_${Object.keys(spec)[0]}`);
    await posts.createIndex({ title: 'text' }, { name: 'search' });
    await expect(posts.createIndex(spec as IndexSpec, options)).rejects.toMatchObject({ code });
  });

  it('accepts a text index again with the same fields and default languages spelled out', async () => {
    const posts = db.collection('text_again');
    await posts.createIndex({ title: 'text' }, { name: 'search' });
    const again = { name: 'search', default_language: 'english', language_override: 'language' };
    expect(await posts.createIndex({ title: 'text' }, again)).toBe('search');
  });
});
