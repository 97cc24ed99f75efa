/**
 * The file-system calls the durable write path makes (the journal, its switch to a new file,
 * compaction's snapshot), gathered behind one interface so that a test can make any of them
 * fail the way a full disk (`ENOSPC`, `EDQUOT`) or a process out of descriptors (`EMFILE`)
 * does. Everything else reads and writes through `node:fs` directly; `nodeFileSystem` is the
 * default.
 */
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';

/** The calls the journal and compaction write through. */
export interface FileSystem {
  /** Opens `path` (`a`: append, creating it; `w`: create or empty; `r`: read, a directory too). */
  open(path: string, flags: 'a' | 'w' | 'r'): number;
  /** Writes `length` bytes of `bytes` from `offset`; answers how many were written. */
  write(fd: number, bytes: Uint8Array, offset: number, length: number): number;
  /** `fdatasync`: the file's bytes and size on disk before it returns. */
  datasync(fd: number): void;
  /** The same, off the event loop (a snapshot of many megabytes). */
  datasyncInBackground(fd: number): Promise<void>;
  /** `fsync` (a directory, so that the files created or renamed in it survive power loss). */
  sync(fd: number): void;
  /** Cuts the file to `length` bytes. */
  truncate(fd: number, length: number): void;
  close(fd: number): void;
  rename(from: string, to: string): void;
  unlink(path: string): void;
}

/** A file the write path creates is readable and writable by its owner only. */
const FILE_MODE = 0o600;

/** The real file system (`node:fs`). */
export const nodeFileSystem: FileSystem = {
  open: (path, flags) => openSync(path, flags, FILE_MODE),
  write: (fd, bytes, offset, length) => writeSync(fd, bytes, offset, length),
  datasync: (fd) => fdatasyncSync(fd),
  datasyncInBackground: (fd) =>
    new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve()))),
  sync: (fd) => fsyncSync(fd),
  truncate: (fd, length) => ftruncateSync(fd, length),
  close: (fd) => closeSync(fd),
  rename: (from, to) => renameSync(from, to),
  unlink: (path) => unlinkSync(path),
};

/** The `code` of a failed system call (`ENOSPC`, ...), if it has one. */
export function systemCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether a system call failed for want of space: the disk is full, or the user's quota spent. */
export function isOutOfSpace(error: unknown): boolean {
  const code = systemCode(error);
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * Whether a system call failed for a reason that passes by itself: no space (or quota) left,
 * or no file descriptor left in the process (`EMFILE`) or the system (`ENFILE`). Any other
 * failure (`EIO`, ...) is taken as the disk's own and is not retried.
 */
export function isTransient(error: unknown): boolean {
  const code = systemCode(error);
  return isOutOfSpace(error) || code === 'EMFILE' || code === 'ENFILE';
}
