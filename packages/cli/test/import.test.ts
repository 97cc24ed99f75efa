/**
 * `store import` (and `store serve --seed`) is all or nothing: a document refused by the checks
 * or by the database leaves every collection as it was, and the store's internal collections
 * come in only when asked for. The progress bar is drawn on a terminal only.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDb } from '@store/embedded';
import { EJSON, ObjectId } from 'bson';
import { afterAll, describe, expect, it } from 'vitest';
import { readDataFile } from '../src/data-file';
import { type CliIo, runCli } from '../src/index';
import { run } from './serving';

const made: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-import-'));
  made.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataFile(collections: Record<string, unknown[]>): string {
  const file = join(freshDir(), 'db.json');
  writeFileSync(file, EJSON.stringify(collections, { relaxed: true }));
  return file;
}

const posts = (count: number, from = 0): Array<Record<string, unknown>> =>
  Array.from({ length: count }, (_, i) => ({
    id: from + i,
    title: `post ${from + i}`,
    slug: `s${from + i}`,
  }));

/** What the data directory holds, by collection: the number of documents. */
async function counts(dir: string): Promise<Record<string, number>> {
  const db = createEmbeddedDb({ dir, warn: () => undefined });
  try {
    const out: Record<string, number> = {};
    for (const { name } of await db.listCollections().toArray()) {
      out[name] = await db.collection(name).countDocuments({});
    }
    return out;
  } finally {
    await db.close();
  }
}

/** Runs the command with a terminal stand-in for the progress bars; answers what was drawn. */
async function runWithProgress(args: string[], isTTY = true) {
  const drawn: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: () => undefined,
    err: (line) => err.push(line),
    write: () => undefined,
    stopped: new Promise(() => undefined),
    progress: { isTTY, write: (text) => drawn.push(text) },
  };
  const exit = await runCli(args, io, {});
  return { exit, drawn: drawn.join(''), err: err.join('\n') };
}

describe('store import, all or nothing', () => {
  it('imports nothing when a document in the middle has an invalid _id, naming it', async () => {
    const data = freshDir();
    const docs: unknown[] = posts(20_000);
    docs[12_345] = { _id: [1, 2], title: 'bad' };
    const cli = run(['import', dataFile({ comments: [{ id: 'c1' }], posts: docs }), '--data', data]);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toMatch(/posts\[12345\]: an _id cannot be an array; nothing was imported/);
    expect(await counts(data)).toEqual({});
  });

  it('names both places of an _id that is in the file twice, and imports nothing', async () => {
    const data = freshDir();
    const cli = run(['import', dataFile({ posts: [...posts(3), { id: 1 }] }), '--data', data]);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toMatch(/posts\[3\]: the _id 1 is in the file twice \(first at posts\[1\]\)/);
    expect(await counts(data)).toEqual({});
  });

  it.each([
    ['strings', [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'b' }], 3, 1],
    ['numbers', [{ id: 1 }, { id: 2 }, { id: 2 }], 2, 1],
  ])('refuses a repeated id after increasing %s, naming both places', async (_, docs, at, first) => {
    const data = freshDir();
    const cli = run(['import', dataFile({ posts: docs }), '--data', data]);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toMatch(
      new RegExp(`posts\\[${at}\\]: the _id .* is in the file twice \\(first at posts\\[${first}\\]\\)`),
    );
    expect(await counts(data)).toEqual({});
  });

  it.each([
    ['UTF-8 text', '{"posts":[{"id":1,"title":"café ☕ 😀"}]}'],
    ['ASCII text with escapes', '{"posts":[{"id":1,"title":"caf\\u00e9 \\u2615 \\ud83d\\ude00"}]}'],
  ])('reads %s as the same documents', (_, text) => {
    const file = join(freshDir(), 'db.json');
    writeFileSync(file, text);
    expect(readDataFile(file).collections.get('posts')).toEqual([{ _id: 1, title: 'café ☕ 😀' }]);
  });

  it('reads a json-server id as the _id, first, keeping a member named __proto__ a member', () => {
    const file = join(freshDir(), 'db.json');
    writeFileSync(file, '{"posts":[{"title":"t","id":7,"__proto__":{"a":1}}]}');
    const doc = readDataFile(file).collections.get('posts')?.[0] as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['_id', 'title', '__proto__']);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(doc, '__proto__')?.value).toEqual({ a: 1 });
  });

  it.each([
    ['the number 1 and the string "1"', [{ id: 1 }, { id: '1' }], 2],
    ['two ObjectIds', [{ _id: new ObjectId() }, { _id: new ObjectId() }], 2],
    ['two dates', [{ _id: new Date(0) }, { _id: new Date(1) }], 2],
    ['a number id and documents without one', [{ id: 1 }, { title: 'a' }, { title: 'b' }], 3],
  ])('imports distinct ids: %s', async (_, docs, count) => {
    const data = freshDir();
    expect(await run(['import', dataFile({ posts: docs }), '--data', data]).exit).toBe(0);
    expect(await counts(data)).toEqual({ posts: count });
  });

  it.each([
    [
      'the same ObjectId',
      () => [
        { _id: new ObjectId('65a1b2c3d4e5f60718293a4b') },
        { _id: new ObjectId('65a1b2c3d4e5f60718293a4b') },
      ],
    ],
    ['the same date', () => [{ _id: new Date(5) }, { _id: new Date(5) }]],
    ['1 and 1.0', () => [{ id: 1 }, { id: 1.0 }]],
    ['the same sub-document', () => [{ _id: { a: 1, b: 'x' } }, { _id: { a: 1, b: 'x' } }]],
  ])('refuses %s twice, importing nothing', async (_, docs) => {
    const data = freshDir();
    const cli = run(['import', dataFile({ posts: docs() }), '--data', data]);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toMatch(/posts\[1\]: the _id .* is in the file twice \(first at posts\[0\]\)/);
    expect(await counts(data)).toEqual({});
  });

  it('keeps what --replace would have replaced when the database refuses a document part-way', async () => {
    const data = freshDir();
    const db = createEmbeddedDb({ dir: data, warn: () => undefined });
    await db.collection('posts').insertMany(posts(5));
    await db.collection('posts').createIndex({ slug: 1 }, { unique: true });
    await db.close();
    const docs = posts(25_000, 100);
    docs[21_000] = { id: 'late', title: 'taken slug', slug: 's150' };
    const file = dataFile({ tags: [{ id: 't' }], posts: docs });
    const cli = run(['import', file, '--data', data, '--replace']);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toMatch(/posts\[21000\]: .*duplicate key.*; nothing was imported/);
    expect(await counts(data)).toEqual({ posts: 5 });
  });

  it('replaces the collections whole with --replace, keeping their indexes', async () => {
    const data = freshDir();
    const db = createEmbeddedDb({ dir: data, warn: () => undefined });
    await db.collection('posts').insertMany(posts(5));
    await db.collection('posts').createIndex({ slug: 1 }, { unique: true });
    await db.close();
    const cli = run(['import', dataFile({ posts: posts(3, 10) }), '--data', data, '--replace']);
    expect(await cli.exit).toBe(0);
    const reopened = createEmbeddedDb({ dir: data, warn: () => undefined });
    try {
      expect(await reopened.collection('posts').find({}).toArray()).toEqual(
        posts(3, 10).map(({ id, ...rest }) => ({ _id: id, ...rest })),
      );
      const indexes = await reopened.collection('posts').listIndexes().toArray();
      expect(indexes.map((index) => index.name)).toEqual(['_id_', 'slug_1']);
    } finally {
      await reopened.close();
    }
  });
});

describe("store import and the store's internal collections", () => {
  const withSessions = () =>
    dataFile({ users: [{ id: 'u1', email: 'a@b.test' }], 'svc-sessions': [{ _id: 'h', userId: 'u1' }] });

  it('refuses a file holding one, importing nothing, and says which flag imports it', async () => {
    const data = freshDir();
    const cli = run(['import', withSessions(), '--data', data]);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toMatch(
      /svc-sessions: the store's internal collections .* are not imported from a file; nothing was imported\. Add --include-internal/,
    );
    expect(await counts(data)).toEqual({});
  });

  it('imports it with --include-internal', async () => {
    const data = freshDir();
    expect(await run(['import', withSessions(), '--data', data, '--include-internal']).exit).toBe(0);
    expect(await counts(data)).toEqual({ 'svc-sessions': 1, users: 1 });
  });

  it('imports users like any other collection', async () => {
    const data = freshDir();
    expect(await run(['import', dataFile({ users: [{ id: 'u1' }] }), '--data', data]).exit).toBe(0);
    expect(await counts(data)).toEqual({ users: 1 });
  });

  it('refuses one in a --seed file too, before serving', async () => {
    const cli = run(['serve', '--port', '0', '--data', freshDir(), '--seed', withSessions()]);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toMatch(/svc-sessions: the store's internal collections/);
  });
});

describe('the progress bar of store import', () => {
  it('counts each collection up to its total on a terminal', async () => {
    const { exit, drawn } = await runWithProgress([
      'import',
      dataFile({ posts: posts(25_000), tags: [{ id: 't' }] }),
      '--data',
      freshDir(),
    ]);
    expect(exit).toBe(0);
    expect(drawn).toMatch(/posts \d[\d,]*\/25,000 \[[#-]{24}\] \d+%/);
    expect(drawn).toContain('\rposts 25,000/25,000 [########################] 100%\n');
    expect(drawn).toContain('\rtags 1/1 [########################] 100%\n');
  });

  it('ends at the count reached when the import fails part-way', async () => {
    const docs = posts(25_000);
    docs[15_000] = { id: 'late', slug: 's3' };
    const data = freshDir();
    const db = createEmbeddedDb({ dir: data, warn: () => undefined });
    await db.collection('posts').createIndex({ slug: 1 }, { unique: true });
    await db.close();
    const { exit, drawn, err } = await runWithProgress(['import', dataFile({ posts: docs }), '--data', data]);
    expect(exit).toBe(1);
    expect(err).toMatch(/posts\[15000\]/);
    expect(drawn).toMatch(/\rposts 10,000\/25,000 \[#{10}-{14}\] 40%\n$/);
  });

  it('draws nothing when the output is not a terminal', async () => {
    const { exit, drawn } = await runWithProgress(
      ['import', dataFile({ posts: posts(100) }), '--data', freshDir()],
      false,
    );
    expect(exit).toBe(0);
    expect(drawn).toBe('');
  });
});
