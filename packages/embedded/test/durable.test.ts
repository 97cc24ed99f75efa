/**
 * Durable data: what `createEmbeddedDb({ dir })` writes survives a
 * restart with its BSON types and indexes; a damaged journal tail is set aside and the rest
 * kept; a damaged snapshot refuses to open; a directory is opened by one database at a time.
 */
import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDb, EmbeddedDataError, type EmbeddedDb } from '@store/embedded';
import { Binary, Decimal128, Long, ObjectId } from 'bson';
import { afterEach, describe, expect, it } from 'vitest';

const opened: EmbeddedDb[] = [];
const quiet = () => undefined;

function open(dir: string, options: { compactAfterBytes?: number; warn?: (m: string) => void } = {}) {
  const db = createEmbeddedDb({ dir, warn: quiet, ...options });
  opened.push(db);
  return db;
}

/** Inverts every bit of one byte. */
const flip = (bytes: Buffer, at: number) => bytes.writeUInt8(bytes.readUInt8(at) ^ 0xff, at);

const freshDir = () => mkdtempSync(join(tmpdir(), 'store-durable-'));

afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

describe('createEmbeddedDb({ dir })', () => {
  it('keeps every acknowledged write across a restart, with its BSON types', async () => {
    const dir = freshDir();
    const db = open(dir);
    const posts = db.collection('posts');
    const id = new ObjectId();
    const doc = {
      _id: id,
      at: new Date('2030-01-02T03:04:05.678Z'),
      price: Decimal128.fromString('9.99'),
      big: Long.fromString('9007199254740993'),
      bytes: new Binary(Buffer.from([1, 2, 3])),
      pattern: /ab+c/i,
      nested: { list: [1, 'two', { three: 3 }] },
    };
    await posts.insertOne(doc);
    await posts.insertOne({ _id: 2, title: 'gone' });
    await posts.insertOne({ _id: 3, title: 'old' });
    await posts.updateOne({ _id: 3 }, { $set: { title: 'new' } });
    await posts.deleteOne({ _id: 2 });
    await posts.findOneAndReplace(
      { _id: 4 },
      { title: 'upserted' },
      { returnDocument: 'after', upsert: true },
    );
    await db.close();

    const again = open(dir);
    const found = await again.collection('posts').find({}).toArray();
    expect(found.map((each) => each._id)).toEqual([id, 3, 4]);
    expect(found[0]).toEqual(doc);
    expect(found[1]).toEqual({ _id: 3, title: 'new' });
  });

  it('creates its indexes again on open, unique ones included, and forgets dropped ones', async () => {
    const dir = freshDir();
    const db = open(dir);
    const users = db.collection('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.createIndex({ age: 1 }, { name: 'by_age' });
    await users.dropIndex('by_age');
    await users.insertOne({ email: 'ada@example.com' });
    await db.close();

    const again = open(dir).collection('users');
    expect((await again.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'email_1']);
    await expect(again.insertOne({ email: 'ada@example.com' })).rejects.toMatchObject({ code: 11000 });
  });

  it('journals what a failing write changed before it failed, and nothing of the failure', async () => {
    const dir = freshDir();
    const db = open(dir);
    const things = db.collection('things');
    await things.insertOne({ _id: 1 });
    await expect(things.insertOne({ _id: 1 })).rejects.toMatchObject({ code: 11000 });
    await db.close();
    expect(await open(dir).collection('things').countDocuments({})).toBe(1);
  });

  it('compacts the journal into a snapshot and opens from both', async () => {
    const dir = freshDir();
    const db = open(dir, { compactAfterBytes: 2_000 });
    const notes = db.collection('notes');
    await notes.createIndex({ n: 1 });
    for (let n = 0; n < 300; n++) await notes.insertOne({ _id: n, n, body: 'x'.repeat(50) });
    for (let n = 0; n < 300; n += 3) await notes.deleteOne({ _id: n });
    await db.close();
    const files = readdirSync(dir);
    expect(files).toContain('snapshot.bson');
    expect(files.filter((name) => name.startsWith('journal-'))).toHaveLength(1);

    const again = open(dir).collection('notes');
    expect(await again.countDocuments({})).toBe(200);
    expect(await again.findOne({ _id: 299 })).toEqual({ _id: 299, n: 299, body: 'x'.repeat(50) });
    expect(await again.findOne({ _id: 3 })).toBeNull();
  });

  it('shares one sync among concurrent writes and keeps them all', async () => {
    const dir = freshDir();
    const db = open(dir);
    const items = db.collection('items');
    await Promise.all(Array.from({ length: 200 }, (_, i) => items.insertOne({ _id: i })));
    await db.close();
    expect(await open(dir).collection('items').countDocuments({})).toBe(200);
  });
});

describe('createEmbeddedDb({ dir }) after damage', () => {
  async function written(dir: string, count: number): Promise<string> {
    const db = open(dir);
    for (let i = 0; i < count; i++) await db.collection('docs').insertOne({ _id: i, value: `v${i}` });
    await db.close();
    const journal = readdirSync(dir).find((name) => name.startsWith('journal-'));
    return join(dir, journal as string);
  }

  it('drops a torn last record, keeps every earlier one and sets the cut bytes aside', async () => {
    const dir = freshDir();
    const journal = await written(dir, 10);
    truncateSync(journal, statSync(journal).size - 5);
    const warnings: string[] = [];
    const db = open(dir, { warn: (message) => warnings.push(message) });
    const docs = await db.collection('docs').find({}).toArray();
    expect(docs.map((doc) => doc._id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(warnings).toEqual([expect.stringMatching(/record cut short .* set aside in .*damaged-/)]);
    expect(readdirSync(dir).some((name) => name.includes('.damaged-'))).toBe(true);
    await db.collection('docs').insertOne({ _id: 'after' });
    await db.close();
    expect(await open(dir).collection('docs').countDocuments({})).toBe(10);
  });

  it('drops a last record whose checksum does not match', async () => {
    const dir = freshDir();
    const journal = await written(dir, 5);
    const bytes = readFileSync(journal);
    flip(bytes, bytes.length - 3);
    writeFileSync(journal, bytes);
    const warnings: string[] = [];
    const docs = await open(dir, { warn: (message) => warnings.push(message) })
      .collection('docs')
      .find({})
      .toArray();
    expect(docs.map((doc) => doc._id)).toEqual([0, 1, 2, 3]);
    expect(warnings[0]).toMatch(/checksum does not match/);
  });

  it('opens a journal with garbage appended after its last record, keeping every record', async () => {
    const dir = freshDir();
    const journal = await written(dir, 3);
    appendFileSync(journal, Buffer.from([7, 0, 0]));
    expect(await open(dir).collection('docs').countDocuments({})).toBe(3);
  });

  it('refuses to open a damaged snapshot, naming it, and changes nothing', async () => {
    const dir = freshDir();
    const db = open(dir, { compactAfterBytes: 500 });
    for (let i = 0; i < 100; i++) await db.collection('docs').insertOne({ _id: i, body: 'y'.repeat(40) });
    await db.close();
    const snapshot = join(dir, 'snapshot.bson');
    const bytes = readFileSync(snapshot);
    flip(bytes, Math.floor(bytes.length / 2));
    writeFileSync(snapshot, bytes);
    const failure = (() => {
      try {
        createEmbeddedDb({ dir, warn: quiet });
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(EmbeddedDataError);
    expect(failure).toMatchObject({ reason: 'corrupt', path: snapshot });
    expect((failure as Error).message).toMatch(/snapshot\.bson is damaged .*nothing was loaded/);
    expect(readFileSync(snapshot)).toEqual(bytes);
    // The lock was released: once the snapshot is fixed the directory opens.
    flip(bytes, Math.floor(bytes.length / 2));
    writeFileSync(snapshot, bytes);
    expect(await open(dir).collection('docs').countDocuments({})).toBe(100);
  });
});

describe('createEmbeddedDb({ dir }) lock', () => {
  it('refuses a second open of a directory in use at once, naming it and the holder', () => {
    const dir = freshDir();
    open(dir);
    expect(() => createEmbeddedDb({ dir })).toThrow(
      expect.objectContaining({
        reason: 'locked',
        message: expect.stringContaining(`${dir} is in use by this process`),
      }),
    );
  });

  it('opens a directory again once it is closed', async () => {
    const dir = freshDir();
    await open(dir).close();
    expect(() => open(dir)).not.toThrow();
  });

  it('takes over the lock of a process that no longer runs', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'LOCK'), '2147483646\n');
    expect(() => open(dir)).not.toThrow();
  });

  it('refuses a directory whose lock a running process holds', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'LOCK'), `${process.ppid}\n`);
    expect(() => createEmbeddedDb({ dir })).toThrow(`in use by process ${process.ppid}`);
  });
});

describe('listCollections', () => {
  it('names the collections that hold documents or indexes, in name order', async () => {
    const db = createEmbeddedDb();
    await db.collection('posts').insertOne({ _id: 1 });
    await db.collection('users').createIndex({ email: 1 });
    await db.collection('empty').countDocuments({});
    expect(await db.listCollections().toArray()).toEqual([{ name: 'posts' }, { name: 'users' }]);
  });
});
