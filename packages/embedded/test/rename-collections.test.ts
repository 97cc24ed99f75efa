/**
 * Whole-collection operations for imports: `renameCollections` moves documents and indexes at
 * once (one journal record, so a crash keeps all of the renames or none), `dropCollection`
 * forgets a collection, and an open drops the temporary collections an import left behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDb, type EmbeddedDb, TEMPORARY_COLLECTION_PREFIX } from '@store/embedded';
import { afterEach, describe, expect, it } from 'vitest';

const opened: EmbeddedDb[] = [];
const made: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-rename-'));
  made.push(dir);
  return dir;
};

function open(dir?: string): EmbeddedDb {
  const db = createEmbeddedDb(dir === undefined ? {} : { dir, warn: () => undefined });
  opened.push(db);
  return db;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const names = async (db: EmbeddedDb) => (await db.listCollections().toArray()).map((each) => each.name);
const docsOf = (db: EmbeddedDb, name: string) => db.collection(name).find({}).toArray();

describe('EmbeddedDb.renameCollections', () => {
  it('gives each target the documents and indexes of its source, replacing what it held', async () => {
    const db = open();
    await db.collection('posts').insertMany([{ _id: 'old' }]);
    await db.collection('tmp.a').insertMany([
      { _id: 1, slug: 'x' },
      { _id: 2, slug: 'y' },
    ]);
    await db.collection('tmp.a').createIndex({ slug: 1 }, { unique: true });
    await db.collection('tmp.b').insertOne({ _id: 'c' });
    await db.renameCollections([
      ['tmp.a', 'posts'],
      ['tmp.b', 'comments'],
    ]);
    expect(await names(db)).toEqual(['comments', 'posts']);
    expect(await docsOf(db, 'posts')).toEqual([
      { _id: 1, slug: 'x' },
      { _id: 2, slug: 'y' },
    ]);
    await expect(db.collection('posts').insertOne({ _id: 3, slug: 'x' })).rejects.toMatchObject({
      code: 11000,
    });
    expect(await db.collection('posts').findOne({ slug: 'y' })).toEqual({ _id: 2, slug: 'y' });
    expect(await docsOf(db, 'tmp.a')).toEqual([]);
  });

  it('keeps the renames across a restart', async () => {
    const dir = freshDir();
    const first = open(dir);
    await first.collection('posts').insertOne({ _id: 'old' });
    await first.collection('tmp.a').insertMany([{ _id: 1 }, { _id: 2 }]);
    await first.renameCollections([['tmp.a', 'posts']]);
    await first.close();
    const second = open(dir);
    expect(await names(second)).toEqual(['posts']);
    expect(await docsOf(second, 'posts')).toEqual([{ _id: 1 }, { _id: 2 }]);
  });

  it.each([
    ['a collection renamed to itself', [['a', 'a']]],
    [
      'a name in two renames',
      [
        ['a', 'b'],
        ['b', 'c'],
      ],
    ],
    ['a name with $', [['a', 'b$']]],
  ] as const)('refuses %s (code 73), changing nothing', async (_, renames) => {
    const db = open();
    await db.collection('a').insertOne({ _id: 1 });
    await expect(db.renameCollections(renames)).rejects.toMatchObject({ code: 73 });
    expect(await docsOf(db, 'a')).toEqual([{ _id: 1 }]);
  });
});

describe('EmbeddedDb.dropCollection', () => {
  it('forgets the documents and indexes, also after a restart', async () => {
    const dir = freshDir();
    const first = open(dir);
    await first.collection('gone').insertOne({ _id: 1 });
    await first.collection('gone').createIndex({ a: 1 });
    expect(await first.dropCollection('gone')).toBe(true);
    expect(await first.dropCollection('never')).toBe(false);
    expect(await names(first)).toEqual([]);
    await first.close();
    expect(await names(open(dir))).toEqual([]);
  });
});

describe('opening a data directory', () => {
  it('drops the temporary collections of an import that never finished', async () => {
    const dir = freshDir();
    const first = open(dir);
    const temporary = `${TEMPORARY_COLLECTION_PREFIX}x.posts`;
    await first.collection('posts').insertOne({ _id: 'kept' });
    await first.collection(temporary).insertMany([{ _id: 1 }, { _id: 2 }]);
    await first.close();
    const second = open(dir);
    expect(await names(second)).toEqual(['posts']);
    await second.close();
    expect(await names(open(dir))).toEqual(['posts']);
  });
});
