/**
 * A full disk for real: a data directory on a 2 MiB tmpfs, filled by the database's own writes.
 * A write that finds no space is refused with OutOfDiskSpace (14031) while reads answer; once a
 * file beside it is deleted, writes work again by themselves; a stop while the disk is full
 * leaves a directory that opens with every acknowledged write. Mounting needs root (and the
 * right to mount): without it the test is skipped, and its name says why.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDb, EMBEDDED_ERROR_CODES } from '@store/embedded';
import { afterAll, describe, expect, it } from 'vitest';

const mountPoint = mkdtempSync(join(tmpdir(), 'store-tmpfs-'));
const inodesMountPoint = mkdtempSync(join(tmpdir(), 'store-tmpfs-inodes-'));

/** Mounts a 2 MiB tmpfs on `where`; answers why it cannot, if it cannot. */
function mountTmpfs(where: string, options: string): string | undefined {
  if (process.platform !== 'linux') return 'tmpfs is Linux only';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', where], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    const reason = String((error as { stderr?: unknown }).stderr ?? (error as Error).message).trim();
    return `mount -t tmpfs failed: ${reason.split('\n')[0]}`;
  }
}

const unmountable = mountTmpfs(mountPoint, 'size=2m');
const inodesUnmountable = mountTmpfs(inodesMountPoint, 'size=2m,nr_inodes=64');

afterAll(() => {
  if (!unmountable) execFileSync('umount', [mountPoint]);
  if (!inodesUnmountable) execFileSync('umount', [inodesMountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
  rmSync(inodesMountPoint, { recursive: true, force: true });
});

describe('a data directory on a 2 MiB tmpfs', () => {
  const title =
    'refuses writes with OutOfDiskSpace once the tmpfs is full, answers reads, writes again once space is freed, and a stop while full keeps every acknowledged write';
  it.skipIf(unmountable !== undefined)(
    unmountable ? `${title} (skipped: ${unmountable})` : title,
    {
      timeout: 30_000,
    },
    async () => {
      const dir = join(mountPoint, 'data');
      mkdirSync(dir);
      // Files deleted later to free space.
      writeFileSync(join(mountPoint, 'ballast-1'), Buffer.alloc(256 * 1024));
      writeFileSync(join(mountPoint, 'ballast-2'), Buffer.alloc(256 * 1024));
      const db = createEmbeddedDb({ dir, warn: () => undefined });
      const docs = db.collection('docs');
      const acked: string[] = [];
      const pad = 'x'.repeat(8 * 1024);

      /** Inserts until a write is refused; answers the refusal. */
      const fill = async (prefix: string): Promise<unknown> => {
        for (let n = 0; n < 1_000; n++) {
          try {
            await docs.insertOne({ _id: `${prefix}${n}`, pad });
            acked.push(`${prefix}${n}`);
          } catch (error) {
            return error;
          }
        }
        throw new Error('the tmpfs never filled up');
      };

      expect(await fill('a')).toMatchObject({
        code: EMBEDDED_ERROR_CODES.OutOfDiskSpace,
        codeName: 'OutOfDiskSpace',
      });
      expect(await docs.findOne({ _id: 'a0' }, {})).toMatchObject({ _id: 'a0' });
      expect(await docs.countDocuments({})).toBeGreaterThan(acked.length - 1);

      unlinkSync(join(mountPoint, 'ballast-1'));
      await docs.insertOne({ _id: 'after', pad });
      acked.push('after');

      expect(await fill('b')).toMatchObject({ codeName: 'OutOfDiskSpace' });
      await db.close();

      // Opening needs a little space (the lock file): free some, then read everything back.
      unlinkSync(join(mountPoint, 'ballast-2'));
      const again = createEmbeddedDb({ dir, warn: () => undefined });
      const ids = new Set((await again.collection('docs').find({}).toArray()).map((doc) => String(doc._id)));
      await again.close();
      for (const id of acked) expect(ids.has(id), `${id}, acknowledged`).toBe(true);
      console.log(
        `tmpfs: ${acked.length} acknowledged writes on a 2 MiB tmpfs, ${ids.size} documents after the reopen`,
      );
    },
  );

  const switchTitle =
    'refuses the writes behind a journal switch that finds no inode left, without a crash, and switches once one is freed';
  it.skipIf(inodesUnmountable !== undefined)(
    inodesUnmountable ? `${switchTitle} (skipped: ${inodesUnmountable})` : switchTitle,
    { timeout: 30_000 },
    async () => {
      const dir = join(inodesMountPoint, 'data');
      mkdirSync(dir);
      const db = createEmbeddedDb({ dir, compactAfterBytes: 4_096, warn: () => undefined });
      const docs = db.collection('docs');
      // Takes every inode left.
      const fillers: string[] = [];
      for (let n = 0; n < 100; n++) {
        try {
          writeFileSync(join(inodesMountPoint, `filler-${n}`), '');
          fillers.push(join(inodesMountPoint, `filler-${n}`));
        } catch (error) {
          expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
          break;
        }
      }
      const acked: string[] = [];
      const pad = 'x'.repeat(1_024);
      let refused: unknown;
      for (let n = 0; n < 40 && !refused; n++) {
        try {
          await docs.insertOne({ _id: `a${n}`, pad });
          acked.push(`a${n}`);
        } catch (error) {
          refused = error;
        }
      }
      expect(refused).toMatchObject({ codeName: 'OutOfDiskSpace' });
      expect(await docs.countDocuments({})).toBe(acked.length);
      unlinkSync(fillers.pop() as string);
      unlinkSync(fillers.pop() as string);
      await docs.insertOne({ _id: 'after', pad });
      acked.push('after');
      await db.close();
      for (const filler of fillers) unlinkSync(filler);
      const again = createEmbeddedDb({ dir, warn: () => undefined });
      const ids = new Set((await again.collection('docs').find({}).toArray()).map((doc) => String(doc._id)));
      await again.close();
      for (const id of acked) expect(ids.has(id), `${id}, acknowledged`).toBe(true);
    },
  );
});
