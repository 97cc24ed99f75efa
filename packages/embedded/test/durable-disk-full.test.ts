/**
 * A durable database on a full disk (`ENOSPC`, or a spent quota `EDQUOT`), through a file
 * system whose disk fills up: a write that finds no space is refused (code 14031,
 * `OutOfDiskSpace`, as MongoDB's) and reads keep answering; once space is back, writes work
 * again by themselves, the refused ones saved first; a stop in that state, a compaction that
 * finds no space and a next journal that cannot be created (`ENOSPC`, `EMFILE`) each leave a
 * directory that opens with every acknowledged write.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDb, EMBEDDED_ERROR_CODES, type EmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FullDisk, fullDisk } from './support/full-disk';

const freshDir = () => mkdtempSync(join(tmpdir(), 'store-disk-full-'));
const opened: EmbeddedDb[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

function open(dir: string, disk: FullDisk | undefined, options: { compactAfterBytes?: number } = {}) {
  const warn = vi.fn();
  const db = createEmbeddedDb({ dir, warn, fileSystem: disk?.fileSystem, ...options });
  opened.push(db);
  return { db, warn };
}

/** The ids stored in `dir`, read by a fresh open on the real file system, and what it warned. */
async function storedIds(dir: string): Promise<{ ids: string[]; warnings: string[] }> {
  const warn = vi.fn();
  const db = createEmbeddedDb({ dir, warn });
  const ids = (await db.collection('docs').find({}).toArray()).map((doc) => String(doc._id)).sort();
  await db.close();
  return { ids, warnings: warn.mock.calls.map(([message]) => String(message)) };
}

const outOfDiskSpace = { code: EMBEDDED_ERROR_CODES.OutOfDiskSpace, codeName: 'OutOfDiskSpace' };

describe.each(['ENOSPC', 'EDQUOT'])('a durable database whose disk is full (%s)', (code) => {
  it('refuses writes with OutOfDiskSpace (14031), later ones before they change anything, keeps answering reads, and writes again by itself once space is back', async () => {
    const dir = freshDir();
    const disk = fullDisk();
    disk.code = code;
    const { db } = open(dir, disk);
    const docs = db.collection('docs');
    await docs.insertMany([{ _id: 'a' }, { _id: 'b' }]);
    disk.room = 10; // the next record is written in part, then the disk is full
    await expect(docs.insertOne({ _id: 'c', pad: 'x'.repeat(100) })).rejects.toMatchObject(outOfDiskSpace);
    // While the refused record waits for space, a write is refused before it changes anything.
    await expect(docs.updateOne({ _id: 'a' }, { $set: { v: 1 } })).rejects.toMatchObject(outOfDiskSpace);
    await expect(docs.insertOne({ _id: 'never' })).rejects.toThrow(/nothing of it applied/);
    expect(await docs.countDocuments({})).toBe(3);
    expect(await docs.findOne({ _id: 'a' })).toEqual({ _id: 'a' });
    disk.room = Number.POSITIVE_INFINITY;
    await docs.insertOne({ _id: 'd' });
    await db.close();
    // The refused writes were saved ahead of the next one, which found space.
    const { ids, warnings } = await storedIds(dir);
    expect(ids).toEqual(['a', 'b', 'c', 'd']);
    expect(warnings).toEqual([]);
  });

  it('saves the refused writes by itself a moment after space is back, without another write', async () => {
    const dir = freshDir();
    const disk = fullDisk();
    disk.code = code;
    const { db } = open(dir, disk);
    const docs = db.collection('docs');
    disk.room = 0;
    await expect(docs.insertOne({ _id: 'a' })).rejects.toMatchObject(outOfDiskSpace);
    disk.room = Number.POSITIVE_INFINITY;
    await vi.waitFor(
      () => {
        const journal = readdirSync(dir).find((name) => name.startsWith('journal-')) as string;
        expect(readFileSync(join(dir, journal)).length).toBeGreaterThan(0);
      },
      { timeout: 3_000, interval: 50 },
    );
    await db.close();
    expect((await storedIds(dir)).ids).toEqual(['a']);
  });

  it('leaves, when stopped while the disk is full, a directory that opens with every acknowledged write and no torn record', async () => {
    const dir = freshDir();
    const disk = fullDisk();
    disk.code = code;
    const { db, warn } = open(dir, disk);
    const docs = db.collection('docs');
    await docs.insertOne({ _id: 'a' });
    disk.room = 20;
    await expect(docs.insertOne({ _id: 'b', pad: 'x'.repeat(200) })).rejects.toMatchObject(outOfDiskSpace);
    await db.close();
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/1 writes refused for a full disk were never saved/),
    );
    const { ids, warnings } = await storedIds(dir);
    expect(ids).toEqual(['a']);
    expect(warnings).toEqual([]);
  });

  it('refuses a write whose sync finds no space (delayed allocation), and saves it once space is back', async () => {
    const dir = freshDir();
    const disk = fullDisk();
    disk.code = code;
    const { db } = open(dir, disk);
    const docs = db.collection('docs');
    await docs.insertOne({ _id: 'a' });
    disk.failSyncs = 1;
    await expect(docs.insertOne({ _id: 'b' })).rejects.toMatchObject(outOfDiskSpace);
    await docs.insertOne({ _id: 'c' });
    await db.close();
    expect(await storedIds(dir)).toEqual({ ids: ['a', 'b', 'c'], warnings: [] });
  });

  it('leaves the previous snapshot and journals intact when a compaction finds no space, and compacts later', async () => {
    const dir = freshDir();
    const disk = fullDisk();
    disk.code = code;
    const { db, warn } = open(dir, disk, { compactAfterBytes: 2_000 });
    const docs = db.collection('docs');
    const pad = 'x'.repeat(300);
    for (let n = 0; n < 10; n++) await docs.insertOne({ _id: `a${n}`, pad });
    await vi.waitFor(() => expect(existsSync(join(dir, 'snapshot.bson'))).toBe(true));
    await vi.waitFor(() =>
      expect(readdirSync(dir).filter((name) => name.startsWith('journal-'))).toHaveLength(1),
    );
    const snapshot = readFileSync(join(dir, 'snapshot.bson'));
    disk.refuseWrites = /^snapshot\.tmp$/;
    for (let n = 0; n < 20; n++) await docs.insertOne({ _id: `b${n}`, pad });
    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/compaction failed: .*(ENOSPC|EDQUOT)/)),
    );
    expect(readFileSync(join(dir, 'snapshot.bson'))).toEqual(snapshot);
    expect(existsSync(join(dir, 'snapshot.tmp'))).toBe(false);
    expect(readdirSync(dir).filter((name) => name.startsWith('journal-')).length).toBeGreaterThan(1);
    // Reads and writes go on; a later compaction, with space, makes a new snapshot.
    expect(await docs.countDocuments({})).toBe(30);
    disk.refuseWrites = undefined;
    for (let n = 0; n < 30; n++) await docs.insertOne({ _id: `c${n}`, pad });
    await vi.waitFor(() => expect(readFileSync(join(dir, 'snapshot.bson'))).not.toEqual(snapshot));
    await db.close();
    expect((await storedIds(dir)).ids).toHaveLength(60);
  });
});

describe('a durable database whose next journal cannot be created', () => {
  it.each(['ENOSPC', 'EMFILE'])(
    'refuses the writes behind the switch (%s), without an unhandled rejection, and switches with a later write',
    async (code) => {
      const dir = freshDir();
      const disk = fullDisk();
      const { db, warn } = open(dir, disk, { compactAfterBytes: 1_000 });
      const docs = db.collection('docs');
      const pad = 'x'.repeat(200);
      disk.refuseCreate = { name: /^journal-\d+\.log$/, code };
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, n) => docs.insertOne({ _id: `a${n}`, pad })),
      );
      const acknowledged = results.flatMap((result, n) => (result.status === 'fulfilled' ? [`a${n}`] : []));
      // The records before the switch are written to the journal they were queued for.
      expect(acknowledged.length).toBeGreaterThan(0);
      // One round trip later, the later records wait behind the switch: refused, never in the old journal.
      for (let n = 0; n < 3; n++) {
        const refused = docs.insertOne({ _id: `b${n}`, pad });
        if (code === 'ENOSPC') await expect(refused).rejects.toMatchObject(outOfDiskSpace);
        else await expect(refused).rejects.toThrow(/could not open its next file .*EMFILE/);
      }
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringMatching(/compaction failed/)));
      expect(readdirSync(dir).filter((name) => name.startsWith('journal-'))).toEqual(['journal-0.log']);
      // The records queued behind the switch were applied before it was refused; the later writes were not.
      expect(await docs.countDocuments({})).toBe(12);
      disk.refuseCreate = undefined;
      await docs.insertOne({ _id: 'c' });
      expect(readdirSync(dir).filter((name) => name.startsWith('journal-')).length).toBeGreaterThan(1);
      await db.close();
      const { ids } = await storedIds(dir);
      expect(ids).toEqual(expect.arrayContaining([...acknowledged, 'c']));
      expect(ids).toHaveLength(13);
    },
  );
});
