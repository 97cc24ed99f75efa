/**
 * The order of recovery's file-system calls, and the modes of what the engine creates: the
 * set-aside copy of a torn tail is synced, with its directory entry, before the journal is cut;
 * a new data directory's entry is synced in its parent; the directory is 0700 and its files
 * 0600 whatever the umask; an existing directory open to others draws a warning.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ log: [] as string[], paths: new Map<number, string>() }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const pathOf = (fd: number) => calls.paths.get(fd) ?? `fd ${fd}`;
  const mocked = {
    ...real,
    openSync: (path: fs.PathLike, ...rest: never[]) => {
      const fd = (real.openSync as (...args: unknown[]) => number)(path, ...rest);
      calls.paths.set(fd, String(path));
      return fd;
    },
    fsyncSync: (fd: number) => {
      calls.log.push(`fsync ${pathOf(fd)}`);
      real.fsyncSync(fd);
    },
    fdatasyncSync: (fd: number) => {
      calls.log.push(`fdatasync ${pathOf(fd)}`);
      real.fdatasyncSync(fd);
    },
    ftruncateSync: (fd: number, length?: number) => {
      calls.log.push(`truncate ${pathOf(fd)}`);
      real.ftruncateSync(fd, length);
    },
  };
  return { ...mocked, default: mocked };
});

const freshDir = () => fs.mkdtempSync(join(tmpdir(), 'store-files-'));
const quiet = () => undefined;
const mode = (path: string) => fs.statSync(path).mode & 0o777;

afterEach(() => {
  calls.log.length = 0;
});

describe('recovery order', () => {
  it('syncs the set-aside copy of a torn tail and its directory entry before the journal is cut', async () => {
    const dir = freshDir();
    const db = createEmbeddedDb({ dir, warn: quiet });
    for (let i = 0; i < 5; i++) await db.collection('docs').insertOne({ _id: i });
    await db.close();
    const journal = join(dir, 'journal-0.log');
    fs.truncateSync(journal, fs.statSync(journal).size - 3);
    calls.log.length = 0;
    await createEmbeddedDb({ dir, warn: quiet }).close();
    const at = (pattern: RegExp) => calls.log.findIndex((call) => pattern.test(call));
    const copySynced = at(/^fsync .*journal-0\.log\.damaged-\d+$/);
    const entrySynced = calls.log.findIndex((call, i) => i > copySynced && call === `fsync ${dir}`);
    const cut = at(/^truncate .*journal-0\.log$/);
    const cutSynced = calls.log.findIndex((call, i) => i > cut && /^fdatasync .*journal-0\.log$/.test(call));
    expect(copySynced).toBeGreaterThanOrEqual(0);
    expect(entrySynced).toBeGreaterThan(copySynced);
    expect(cut).toBeGreaterThan(entrySynced);
    expect(cutSynced).toBeGreaterThan(cut);
  });

  it("syncs the parent of each directory it creates, so the data directory's entry survives power loss", async () => {
    const base = freshDir();
    const dir = join(base, 'a', 'b');
    await createEmbeddedDb({ dir, warn: quiet }).close();
    expect(calls.log).toEqual(expect.arrayContaining([`fsync ${base}`, `fsync ${join(base, 'a')}`]));
  });
});

describe('file modes', () => {
  it('creates the directory 0700 and its files 0600 whatever the umask', async () => {
    const previous = process.umask(0);
    try {
      const dir = join(freshDir(), 'data');
      const db = createEmbeddedDb({ dir, warn: quiet, compactAfterBytes: 1_000 });
      expect(mode(dir)).toBe(0o700);
      expect(mode(join(dir, 'LOCK'))).toBe(0o600);
      for (let i = 0; i < 50; i++) await db.collection('docs').insertOne({ _id: i, pad: 'x'.repeat(100) });
      await db.close();
      const files = fs.readdirSync(dir);
      expect(files).toContain('snapshot.bson');
      for (const name of files) expect([name, mode(join(dir, name))]).toEqual([name, 0o600]);
    } finally {
      process.umask(previous);
    }
  });

  it('warns at start when an existing data directory can be reached by other users', async () => {
    const dir = freshDir();
    fs.chmodSync(dir, 0o755);
    const warnings: string[] = [];
    await createEmbeddedDb({ dir, warn: (message) => warnings.push(message) }).close();
    expect(warnings).toEqual([
      `[@store/embedded] the data directory ${dir} can be reached by other users (mode 0755): its files hold every document and the session and secret hashes; run "chmod 700 ${dir}"`,
    ]);
    fs.chmodSync(dir, 0o700);
    warnings.length = 0;
    await createEmbeddedDb({ dir, warn: (message) => warnings.push(message) }).close();
    expect(warnings).toEqual([]);
  });
});
