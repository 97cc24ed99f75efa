/**
 * A file system over the real one whose disk can fill up: `room` bytes are left to write (a
 * write past it writes what fits, and the next one fails), and a file can be refused its
 * creation, its sync or its writes, each failing with a system call error such as `ENOSPC`,
 * `EDQUOT` or `EMFILE`, as Node's own do.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { type FileSystem, nodeFileSystem } from '@store/embedded';

export interface FullDisk {
  fileSystem: FileSystem;
  /** Bytes left to write (Infinity: space is back). */
  room: number;
  /** The error code of a full disk: `ENOSPC` or `EDQUOT`. */
  code: string;
  /** Fails the creation of a file whose name matches (with `code`, or this one). */
  refuseCreate?: { name: RegExp; code?: string };
  /** Fails writes to a file whose name matches, whatever the room. */
  refuseWrites?: RegExp;
  /** Fails this many `fdatasync`s of files (a delayed allocation that finds no space). */
  failSyncs: number;
}

function systemError(code: string, syscall: string, path?: string): NodeJS.ErrnoException {
  const text: Record<string, string> = {
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EMFILE: 'too many open files',
  };
  return Object.assign(
    new Error(`${code}: ${text[code] ?? 'failed'}, ${syscall}${path ? ` '${path}'` : ''}`),
    {
      code,
      syscall,
      path,
    },
  );
}

export function fullDisk(): FullDisk {
  const real = nodeFileSystem;
  const names = new Map<number, string>();
  const disk: FullDisk = {
    room: Number.POSITIVE_INFINITY,
    code: 'ENOSPC',
    failSyncs: 0,
    fileSystem: {
      ...real,
      open(path, flags) {
        const creates = flags !== 'r' && !existsSync(path);
        const refused = disk.refuseCreate;
        if (creates && refused?.name.test(basename(path))) {
          throw systemError(refused.code ?? disk.code, 'open', path);
        }
        if (creates && disk.room <= 0) throw systemError(disk.code, 'open', path);
        const fd = real.open(path, flags);
        names.set(fd, basename(path));
        return fd;
      },
      write(fd, bytes, offset, length) {
        if (disk.refuseWrites?.test(names.get(fd) ?? '')) throw systemError(disk.code, 'write');
        if (disk.room <= 0) throw systemError(disk.code, 'write');
        const fits = Math.min(length, disk.room);
        disk.room -= fits;
        return real.write(fd, bytes, offset, fits);
      },
      datasync(fd) {
        if (disk.failSyncs > 0 && names.has(fd)) {
          disk.failSyncs -= 1;
          throw systemError(disk.code, 'fdatasync');
        }
        real.datasync(fd);
      },
      close(fd) {
        names.delete(fd);
        real.close(fd);
      },
    },
  };
  return disk;
}
