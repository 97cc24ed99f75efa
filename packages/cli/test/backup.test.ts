/**
 * `store backup`: a consistent copy of a data directory while another process writes it
 * (compactions included), owner-only; and `store export` writes its file owner-only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from './serving';

const writerScript = fileURLToPath(new URL('./fixtures/sequential-writer.mjs', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const freshDir = () => mkdtempSync(join(tmpdir(), 'store-backup-'));
const mode = (path: string) => statSync(path).mode & 0o777;
const children: ChildProcess[] = [];

afterEach(async () => {
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }),
  );
});

/** Starts the writer on `dir`; `acked()` answers how many inserts it has acknowledged. */
async function writing(dir: string) {
  const child = spawn(process.execPath, [writerScript, dir], {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let acked = 0;
  let err = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    const last = chunk
      .trim()
      .split('\n')
      .at(-1)
      ?.match(/^ack (\d+)$/);
    if (last) acked = Number(last[1]) + 1;
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  while (acked < 300) {
    if (child.exitCode !== null) throw new Error(`the writer exited: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { acked: () => acked };
}

/** The ids of the copy in `dir`, sorted. */
async function idsIn(dir: string): Promise<number[]> {
  const db = createEmbeddedDb({ dir, warn: () => undefined });
  try {
    return (await db.collection('docs').find({}).toArray())
      .map((doc) => doc._id as number)
      .sort((a, b) => a - b);
  } finally {
    await db.close();
  }
}

describe('store backup', () => {
  it('copies a directory another process is writing (and compacting): every copy opens and holds every write acknowledged before it, with no gap', async () => {
    const data = freshDir();
    const writer = await writing(data);
    for (let copy = 0; copy < 3; copy++) {
      const before = writer.acked();
      const dest = join(freshDir(), 'copy');
      const cli = run(['backup', '--data', data, dest]);
      expect(await cli.exit, cli.err()).toBe(0);
      expect(cli.out()).toMatch(
        new RegExp(
          `^backed up ${data} to ${dest}: .*journal-\\d+\\.log .*the copy opens and holds \\d+ documents in 1 collection`,
        ),
      );
      const ids = await idsIn(dest);
      expect(ids.length).toBeGreaterThanOrEqual(before);
      expect(ids).toEqual(ids.map((_, i) => i)); // 0 .. k-1: a point in time of one writer
      expect(mode(dest)).toBe(0o700);
      for (const name of readdirSync(dest)) expect([name, mode(join(dest, name))]).toEqual([name, 0o600]);
    }
  }, 60_000);

  it('refuses a destination that is not empty, and a directory that holds no data', async () => {
    const data = freshDir();
    await createEmbeddedDb({ dir: data }).close();
    const dest = freshDir();
    writeFileSync(join(dest, 'keep.txt'), 'mine');
    const full = run(['backup', '--data', data, dest]);
    expect(await full.exit).toBe(1);
    expect(full.err()).toBe(
      `store: cannot back up ${data}: ${dest} is not empty: a backup goes to a new or empty directory`,
    );
    const empty = freshDir();
    const none = run(['backup', '--data', empty, join(freshDir(), 'copy')]);
    expect(await none.exit).toBe(1);
    expect(none.err()).toMatch(/holds no data directory \(no snapshot\.bson, no journal\)/);
  });

  it.each([
    [['backup', '--help'], 0, /Usage: store backup --data <dir> <dest>/],
    [['backup', '--data', 'somewhere'], 2, /store backup takes --data <dir> and one destination/],
    [['backup', 'dest'], 2, /store backup takes --data <dir> and one destination/],
  ])('answers %j with exit code %i', async (args, code, text) => {
    const cli = run(args);
    expect(await cli.exit).toBe(code);
    expect(`${cli.out()}${cli.err()}`).toMatch(text);
  });
});

describe('store export', () => {
  it('writes its file readable by its owner only, also over an existing file of mode 0644', async () => {
    const data = freshDir();
    const db = createEmbeddedDb({ dir: data });
    await db.collection('users').insertOne({ _id: 1, name: 'Ada' });
    await db.close();
    const out = join(freshDir(), 'out.json');
    writeFileSync(out, '{}');
    chmodSync(out, 0o644);
    expect(await run(['export', out, '--data', data]).exit).toBe(0);
    expect(mode(out)).toBe(0o600);
  });
});
