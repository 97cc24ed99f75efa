/**
 * Damage inside the newest journal, told apart from a torn tail: damage with intact records
 * after it refuses to open (naming the file, the byte and how many intact records follow) and
 * `repair: true` keeps every intact record with the damaged bytes set aside; a torn tail, even
 * one whose cut bytes hold record-shaped data, is still cut and set aside with a warning.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDb, EmbeddedDataError, type EmbeddedDb } from '@store/embedded';
import { Binary } from 'bson';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeRecord } from '../src/durable/records';

const opened: EmbeddedDb[] = [];
const freshDir = () => mkdtempSync(join(tmpdir(), 'store-damage-'));

afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

function open(dir: string, options: { repair?: boolean; warn?: (message: string) => void } = {}) {
  const db = createEmbeddedDb({ dir, warn: () => undefined, ...options });
  opened.push(db);
  return db;
}

function failure(dir: string): EmbeddedDataError {
  try {
    open(dir);
  } catch (error) {
    return error as EmbeddedDataError;
  }
  throw new Error(`${dir} opened`);
}

/** Writes `count` documents, one record each, and answers the journal's path. */
async function journalOf(dir: string, count: number): Promise<string> {
  const db = createEmbeddedDb({ dir, warn: () => undefined });
  for (let i = 0; i < count; i++) await db.collection('docs').insertOne({ _id: i, value: `v${i}` });
  await db.close();
  return join(dir, readdirSync(dir).find((name) => name.startsWith('journal-')) as string);
}

/** The byte offset of each record of a journal. */
function recordStarts(bytes: Buffer): number[] {
  const starts: number[] = [];
  for (let at = 0; at < bytes.length; at += 8 + bytes.readUInt32LE(at)) starts.push(at);
  return starts;
}

/** Changes the journal at `path` with `change`, answering the bytes it then holds. */
function damage(path: string, change: (bytes: Buffer, starts: number[]) => void): Buffer {
  const bytes = readFileSync(path);
  change(bytes, recordStarts(bytes));
  writeFileSync(path, bytes);
  return bytes;
}

const ids = async (db: EmbeddedDb) => (await db.collection('docs').find({}).toArray()).map((doc) => doc._id);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('damage inside the newest journal', () => {
  it('refuses to open when intact records follow a flipped bit, naming the file, the byte and the count', async () => {
    const dir = freshDir();
    const journal = await journalOf(dir, 71);
    const bytes = damage(journal, (each, starts) => {
      const at = (starts[1] as number) + 20;
      each.writeUInt8(each.readUInt8(at) ^ 0x01, at);
    });
    const refused = failure(dir);
    expect(refused).toBeInstanceOf(EmbeddedDataError);
    expect(refused).toMatchObject({ reason: 'corrupt', path: journal });
    expect(refused.message).toContain(`${journal} is damaged at byte ${recordStarts(bytes)[1]}`);
    expect(refused.message).toContain(
      '69 intact records follow the damage, so this is not a write cut short',
    );
    expect(refused.message).toContain(
      `run "store repair --data ${dir}" or open it with { dir, repair: true }`,
    );
    expect(readFileSync(journal)).toEqual(bytes); // nothing changed
  });

  it.each([
    [
      'a flipped bit in a payload',
      (bytes: Buffer, at: number) => bytes.writeUInt8(bytes.readUInt8(at + 12) ^ 0x10, at + 12),
    ],
    ['a length that runs past the end', (bytes: Buffer, at: number) => bytes.writeUInt8(0x7f, at + 3)],
    [
      'a length one too long',
      (bytes: Buffer, at: number) => bytes.writeUInt32LE(bytes.readUInt32LE(at) + 1, at),
    ],
    [
      'a length one too short',
      (bytes: Buffer, at: number) => bytes.writeUInt32LE(bytes.readUInt32LE(at) - 1, at),
    ],
  ])(
    'with repair: true, keeps every intact record after %s and sets the damaged bytes aside',
    async (_, hurt) => {
      const dir = freshDir();
      const journal = await journalOf(dir, 40);
      const original = readFileSync(journal);
      const starts = recordStarts(original);
      const damaged = damage(journal, (bytes) => hurt(bytes, starts[5] as number));
      expect(failure(dir).message).toMatch(/34 intact records follow the damage/);

      const warnings: string[] = [];
      const repaired = open(dir, { repair: true, warn: (message) => warnings.push(message) });
      expect(await ids(repaired)).toEqual([...range(0, 5), ...range(6, 40)]);
      expect(warnings).toEqual([
        expect.stringMatching(
          /repaired .*journal-0\.log: .* at byte \d+ .*set aside in .*\.damaged-\d+; 39 intact records kept, 34 of them after the damage/,
        ),
      ]);
      // What was set aside is the damaged record, byte for byte, and only it; the file is the owner's.
      const aside = join(dir, readdirSync(dir).find((name) => name.includes('.damaged-')) as string);
      expect(readFileSync(aside)).toEqual(damaged.subarray(starts[5], starts[6]));
      expect(statSync(aside).mode & 0o777).toBe(0o600);
      expect(readFileSync(journal)).toEqual(
        Buffer.concat([original.subarray(0, starts[5]), original.subarray(starts[6])]),
      );
      await repaired.collection('docs').insertOne({ _id: 'after' });
      await repaired.close();
      expect((await ids(open(dir))).length).toBe(40);
    },
  );

  it('still cuts a torn tail (nothing intact after it) and warns that it was a write cut short', async () => {
    const dir = freshDir();
    const journal = await journalOf(dir, 10);
    truncateSync(journal, statSync(journal).size - 7);
    const warnings: string[] = [];
    expect(await ids(open(dir, { warn: (message) => warnings.push(message) }))).toEqual(range(0, 9));
    expect(warnings).toEqual([
      expect.stringMatching(/a write cut short, never acknowledged\) were set aside in /),
    ]);
  });

  it.each([
    ['cut short', (bytes: Buffer, cut: number) => bytes.subarray(0, cut)],
    [
      'cut short, the rest of its length zeros',
      (bytes: Buffer, cut: number) =>
        Buffer.concat([bytes.subarray(0, cut), Buffer.alloc(bytes.length - cut)]),
    ],
  ])(
    'takes a torn last record holding record-shaped data, %s, for a torn tail: never for records that follow',
    async (_, tear) => {
      const dir = freshDir();
      await journalOf(dir, 3);
      // A document whose bytes hold whole journal records (that would make an admin).
      const forged = Buffer.concat(
        Array.from({ length: 20 }, (_, i) =>
          encodeRecord([{ c: 'users', put: { _id: `forged-${i}`, role: 'admin' } }]),
        ),
      );
      const db = createEmbeddedDb({ dir, warn: () => undefined });
      await db.collection('docs').insertOne({ _id: 'big', blob: new Binary(forged) });
      await db.close();
      const journal = join(dir, readdirSync(dir).find((name) => name.startsWith('journal-')) as string);
      const bytes = readFileSync(journal);
      const last = recordStarts(bytes).at(-1) as number;
      writeFileSync(journal, tear(bytes, last + Math.floor((bytes.length - last) * 0.8)));
      const warnings: string[] = [];
      const again = open(dir, { warn: (message) => warnings.push(message) });
      expect(await ids(again)).toEqual([0, 1, 2]);
      expect(await again.collection('users').countDocuments({})).toBe(0);
      expect(warnings).toEqual([expect.stringMatching(/a write cut short, never acknowledged/)]);
    },
  );
});
