import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedDb, type EmbeddedDb } from '../src';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Each change of a collection, and whether it changes what reads answer. */
const CHANGES: Array<[string, (db: EmbeddedDb) => Promise<unknown>]> = [
  ['insertOne', (db) => db.collection('things').insertOne({ _id: 3 })],
  ['insertMany', (db) => db.collection('things').insertMany([{ _id: 3 }, { _id: 4 }])],
  ['updateOne', (db) => db.collection('things').updateOne({ _id: 1 }, { $set: { n: 9 } })],
  ['updateMany', (db) => db.collection('things').updateMany({}, { $inc: { n: 1 } })],
  ['replaceOne', (db) => db.collection('things').replaceOne({ _id: 1 }, { n: 9 })],
  ['findOneAndUpdate', (db) => db.collection('things').findOneAndUpdate({ _id: 1 }, { $set: { n: 9 } })],
  ['deleteOne', (db) => db.collection('things').deleteOne({ _id: 1 })],
  ['deleteMany', (db) => db.collection('things').deleteMany({})],
  ['bulkWrite', (db) => db.collection('things').bulkWrite([{ deleteOne: { filter: { _id: 2 } } }])],
  ['createIndex', (db) => db.collection('things').createIndex({ n: 1 })],
  ['dropCollection', (db) => db.dropCollection('things')],
  ['a rename over it', (db) => db.renameCollections([['others', 'things']])],
  ['a rename away', (db) => db.renameCollections([['things', 'elsewhere']])],
];

async function seeded(db: EmbeddedDb): Promise<EmbeddedDb> {
  await db.collection('things').insertMany([
    { _id: 1, n: 1 },
    { _id: 2, n: 2 },
  ]);
  await db.collection('others').insertOne({ _id: 1, n: 5 });
  return db;
}

describe('contentVersion', () => {
  it.each(CHANGES)('changes at %s', async (_, change) => {
    const db = await seeded(createEmbeddedDb());
    const before = db.collection('things').contentVersion();
    await change(db);
    expect(db.collection('things').contentVersion()).not.toBe(before);
  });

  it('stays while only reads run, and on a write that matched nothing', async () => {
    const db = await seeded(createEmbeddedDb());
    const things = db.collection('things');
    const before = things.contentVersion();
    await things.findOne({ _id: 1 });
    await things.find({ n: { $gt: 0 } }).toArray();
    await things.countDocuments({});
    await things.aggregate([{ $match: {} }]).toArray();
    await things.updateOne({ _id: 99 }, { $set: { n: 1 } });
    await things.deleteOne({ _id: 99 });
    expect(things.contentVersion()).toBe(before);
  });

  it('changes when a document expires under a TTL index, at the next look', async () => {
    const db = createEmbeddedDb();
    const things = db.collection('things');
    await things.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
    await things.insertOne({ _id: 1, at: new Date(Date.now() + 100) });
    const before = things.contentVersion();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(things.contentVersion()).not.toBe(before);
    expect(await things.countDocuments({})).toBe(0);
  });

  it('is never the same number for two collections or two databases, nor after a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'content-version-'));
    dirs.push(dir);
    const durable = await seeded(createEmbeddedDb({ dir }));
    const memory = await seeded(createEmbeddedDb());
    const seen = [
      durable.collection('things').contentVersion(),
      durable.collection('others').contentVersion(),
      memory.collection('things').contentVersion(),
    ];
    await durable.close();
    const reopened = createEmbeddedDb({ dir });
    expect(await reopened.collection('things').countDocuments({})).toBe(2);
    seen.push(reopened.collection('things').contentVersion());
    expect(new Set(seen).size).toBe(seen.length);
    await reopened.close();
  });

  it('throws once the database is closed, as every operation does', async () => {
    const db = await seeded(createEmbeddedDb());
    await db.close();
    expect(() => db.collection('things').contentVersion()).toThrow(/closed/);
  });
});
