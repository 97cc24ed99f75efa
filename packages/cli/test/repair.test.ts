/**
 * `store repair`: a data directory whose journal is damaged with intact records after the
 * damage is refused by `serve`, naming the file, the byte and the way out; `store repair`
 * keeps every intact record, sets the damaged bytes aside and says so.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDb } from '@store/embedded';
import { describe, expect, it } from 'vitest';
import { freePort, run } from './serving';

const freshDir = () => mkdtempSync(join(tmpdir(), 'store-repair-'));

/** A data directory of 30 posts whose third journal record has a flipped bit. */
async function damagedDirectory(): Promise<{ dir: string; journal: string }> {
  const dir = freshDir();
  const db = createEmbeddedDb({ dir, warn: () => undefined });
  for (let i = 0; i < 30; i++) await db.collection('posts').insertOne({ _id: i, title: `post ${i}` });
  await db.close();
  const journal = join(dir, readdirSync(dir).find((name) => name.startsWith('journal-')) as string);
  const bytes = readFileSync(journal);
  let at = 0;
  for (let record = 0; record < 2; record++) at += 8 + bytes.readUInt32LE(at);
  bytes.writeUInt8(bytes.readUInt8(at + 16) ^ 0x04, at + 16);
  writeFileSync(journal, bytes);
  return { dir, journal };
}

describe('store repair', () => {
  it('is what a refused start names, and keeps every intact record, setting the damaged bytes aside', async () => {
    const { dir, journal } = await damagedDirectory();
    const serve = run(['serve', '--port', String(await freePort()), '--data', dir]);
    expect(await serve.exit).toBe(1);
    expect(serve.err()).toMatch(`${journal} is damaged at byte `);
    expect(serve.err()).toMatch('27 intact records follow the damage');
    expect(serve.err()).toMatch(`run "store repair --data ${dir}"`);

    const repair = run(['repair', '--data', dir]);
    expect(await repair.exit).toBe(0);
    expect(repair.out()).toMatch(
      new RegExp(
        `^repaired ${journal}: a record whose checksum does not match at byte \\d+ .*set aside in ${journal}\\.damaged-\\d+; 29 intact records kept, 27 of them after the damage`,
      ),
    );
    expect(repair.out()).toMatch(`${dir} opens again: it holds 29 documents in 1 collection (posts 29)`);

    const exported = run(['export', '--data', dir]);
    expect(await exported.exit).toBe(0);
    const posts = (JSON.parse(exported.written()) as { posts: Array<{ _id: number }> }).posts;
    expect(posts.map((post) => post._id)).toEqual([0, 1, ...Array.from({ length: 27 }, (_, i) => i + 3)]);

    const again = run(['repair', '--data', dir]);
    expect(await again.exit).toBe(0);
    expect(again.out()).toBe(`${dir} needs no repair: it holds 29 documents in 1 collection (posts 29)`);
  });

  it.each([
    [['repair', '--help'], 0, /Usage: store repair --data <dir>/],
    [['repair'], 2, /store repair takes --data <dir> only/],
    [['repair', '--data', 'd', 'extra'], 2, /store repair takes --data <dir> only/],
  ])('answers %j with exit code %i', async (args, code, text) => {
    const cli = run(args);
    expect(await cli.exit).toBe(code);
    expect(`${cli.out()}${cli.err()}`).toMatch(text);
  });

  it('refuses a directory that does not exist instead of creating it', async () => {
    const dir = join(freshDir(), 'nope');
    const cli = run(['repair', '--data', dir]);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toBe(`store: ${dir} does not exist: store repair opens an existing data directory`);
  });
});
