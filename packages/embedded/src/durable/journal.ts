/**
 * The append-only journal with group commit: the records appended during one turn of the event
 * loop are written and synced together once it ends (`setImmediate`), so concurrent writes
 * share one `fdatasync`. The write and sync are synchronous calls (about 0.2 ms here): two
 * thread-pool round trips per batch cost more than they save.
 *
 * One ordered queue holds the records and the switches to a new file, and is written in its
 * order: a switch is made only once every record before it is written and synced to the old
 * file, and then creates and syncs the new file and its directory entry before any later
 * record goes there. So no byte is ever written to a journal once its successor exists, and a
 * crash (or power cut) at any byte leaves at most the newest journal torn, which opening cuts
 * back.
 *
 * A batch that fails for want of space (`ENOSPC`, `EDQUOT`) or of a file descriptor (`EMFILE`,
 * on a switch) is refused to its callers, the file is cut back to its last synced size (so it
 * stays readable to its end) and the batch stays queued: it is written again, ahead of
 * everything appended later, by the next write (`ready`, which refuses that write before it
 * changes anything while the batch still cannot be written) or by itself after a second, so
 * writes work again by themselves once space is back. Any other failure (`EIO`, ...) stops the
 * journal for good.
 */
import { dirname } from 'node:path';
import { EmbeddedDbError } from '../errors';
import { type FileSystem, isOutOfSpace, isTransient, nodeFileSystem, systemCode } from './file-system';

/** How long a batch refused for want of space waits before it is tried again by itself (ms). */
const RETRY_MS = 1_000;

interface Entry {
  /** A record to write, or (`path`) a switch to a new file. */
  bytes?: Buffer;
  path?: string;
  /** Its caller was answered (a refused batch stays queued, answered already). */
  answered: boolean;
  done: () => void;
  failed: (error: Error) => void;
}

/** Syncs a directory so that a file created or renamed in it survives power loss. */
export function syncDirectory(dir: string, fs: FileSystem = nodeFileSystem): void {
  const fd = fs.open(dir, 'r');
  try {
    fs.sync(fd);
  } finally {
    fs.close(fd);
  }
}

/** Creates `path` if needed and makes sure it is on disk (with its directory entry). */
export function touchFile(path: string, dir: string, fs: FileSystem = nodeFileSystem): void {
  const fd = fs.open(path, 'a');
  try {
    fs.datasync(fd);
  } finally {
    fs.close(fd);
  }
  syncDirectory(dir, fs);
}

/**
 * The error a caller gets for a write the journal could not make now but tries again: one whose
 * change is `applied` in memory already (in the batch that found no space), or one refused
 * before it changed anything (while that batch waits).
 */
function refusal(error: unknown, path: string, applied: boolean): Error {
  const detail = `${systemCode(error)}: ${(error as Error).message}`;
  const outcome = applied
    ? 'the write was not saved to disk; it stays in memory and is saved once space is freed, ' +
      'unless the process stops first'
    : 'the write was refused, nothing of it applied; writes resume once space is freed';
  if (isOutOfSpace(error)) {
    return new EmbeddedDbError(
      'OutOfDiskSpace',
      `the disk of ${dirname(path)} is full (${detail}): ${outcome}`,
    );
  }
  return new Error(`the journal could not open its next file ${path} (${detail}): ${outcome}`, {
    cause: error,
  });
}

export class Journal {
  readonly #fs: FileSystem;
  /** The file records are written to now, and its size as last synced. */
  #fd: number;
  #path: string;
  #synced: number;
  /** Bytes of the newest file once everything queued is written. */
  #size: number;
  #queue: Entry[] = [];
  #switches = 0;
  #running: Promise<void> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #failure: Error | undefined;
  /** Why the batch at the head of the queue was last refused (a system error), until it is written. */
  #refused: unknown;
  /** Files written before a switch, closed by `closeOlder`. */
  #older: number[] = [];
  #closed = false;

  /** Appends to the file at `path` (which must exist), `size` bytes long. */
  constructor(path: string, size: number, fs: FileSystem = nodeFileSystem) {
    this.#fs = fs;
    this.#fd = fs.open(path, 'a');
    this.#path = path;
    this.#synced = size;
    this.#size = size;
  }

  /** Bytes in the newest file, once everything queued is written. */
  get size(): number {
    return this.#size;
  }

  /** The path of the file records are written to now. */
  get path(): string {
    return this.#path;
  }

  /** True while a switch is queued (or refused, waiting to be tried again). */
  get switching(): boolean {
    return this.#switches > 0;
  }

  /**
   * Throws while a refused batch waits for space (or a descriptor), after trying it once more
   * now: a write checks this before it changes anything, so that while the disk is full it is
   * refused whole, and the first write once space is back saves the waiting batch and goes on.
   */
  ready(): void {
    if (this.#failure || this.#refused === undefined) return;
    this.#drain();
    if (this.#refused !== undefined) throw refusal(this.#refused, this.#path, false);
  }

  /** The failure that stopped the journal for good, if one did. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /**
   * Sends the records appended from now on to a new file at `path`, created once every earlier
   * record is on disk. Resolves once it is created and synced; a refused switch rejects and is
   * tried again with the next write (later records wait for it, never going to the old file).
   */
  switchTo(path: string): Promise<void> {
    this.#size = 0;
    this.#switches += 1;
    return this.#enqueue({ path });
  }

  /** Resolves once `bytes` is on disk; rejects if it could not be written (see the module comment). */
  append(bytes: Buffer): Promise<void> {
    this.#size += bytes.length;
    return this.#enqueue({ bytes });
  }

  #enqueue(what: { bytes?: Buffer; path?: string }): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((done, failed) => {
      this.#queue.push({ ...what, answered: false, done, failed });
      this.#schedule();
    });
  }

  #schedule(): void {
    this.#running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.#running = undefined;
      this.#drain();
    });
  }

  /** Writes the queue in order; stops at a refused batch (tried again later) or a failure. */
  #drain(): void {
    while (this.#queue.length > 0 && !this.#failure && !this.#closed) {
      const head = this.#queue[0] as Entry;
      try {
        if (head.path !== undefined) this.#switch(head);
        else this.#writeRecords();
      } catch (error) {
        this.#refuse(error);
        return;
      }
    }
  }

  /** Writes and syncs the records at the head of the queue (up to a switch) to the current file. */
  #writeRecords(): void {
    let count = 0;
    while (count < this.#queue.length && this.#queue[count]?.bytes) count += 1;
    const batch = this.#queue.slice(0, count);
    const bytes = Buffer.concat(batch.map((entry) => entry.bytes as Buffer));
    let written = 0;
    while (written < bytes.length) {
      written += this.#fs.write(this.#fd, bytes, written, bytes.length - written);
    }
    this.#fs.datasync(this.#fd);
    this.#synced += bytes.length;
    this.#refused = undefined;
    this.#queue.splice(0, count);
    for (const entry of batch) if (!entry.answered) entry.done();
  }

  /** Creates and syncs the next file and its directory entry, then sends later records to it. */
  #switch(entry: Entry): void {
    const path = entry.path as string;
    const fd = this.#fs.open(path, 'a');
    try {
      this.#fs.datasync(fd);
      syncDirectory(dirname(path), this.#fs);
    } catch (error) {
      this.#fs.close(fd);
      throw error;
    }
    this.#older.push(this.#fd);
    this.#fd = fd;
    this.#path = path;
    this.#synced = 0;
    this.#refused = undefined;
    this.#queue.shift();
    this.#switches -= 1;
    if (!entry.answered) entry.done();
  }

  /**
   * A batch or switch failed: the current file is cut back to its last synced size, every caller
   * still waiting is refused, and (for want of space or of a descriptor) the queue is kept and
   * tried again later; any other failure stops the journal.
   */
  #refuse(error: unknown): void {
    let cause = error;
    try {
      this.#fs.truncate(this.#fd, this.#synced);
    } catch (truncation) {
      // Cannot make the file end on a whole record: nothing may be appended to it again.
      cause = truncation;
    }
    try {
      this.#fs.datasync(this.#fd);
    } catch {
      // The cut is synced with the next batch written; until then, a torn tail found after a
      // power cut is the newest journal's, which opening cuts back.
    }
    if (cause === error && isTransient(error)) {
      const refused = refusal(error, this.#path, true);
      this.#refused = error;
      for (const entry of this.#queue) {
        if (entry.answered) continue;
        entry.answered = true;
        // A switch (a compaction waiting on it) is told the system call's own error.
        entry.failed(entry.path === undefined ? refused : (error as Error));
      }
      if (!this.#closed) {
        this.#retry ??= setTimeout(() => {
          this.#retry = undefined;
          this.#schedule();
        }, RETRY_MS).unref();
      }
      return;
    }
    this.#failure = new Error(`writing the journal failed: ${(cause as Error).message}`, { cause });
    for (const entry of this.#queue) if (!entry.answered) entry.failed(this.#failure);
    this.#queue = [];
  }

  /** Resolves once everything appended so far is written, refused or failed. */
  async flushed(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Closes the files of earlier switches (every record before a switch is synced before it). */
  async closeOlder(): Promise<void> {
    await this.flushed();
    for (const fd of this.#older.splice(0)) this.#closeQuietly(fd);
  }

  /**
   * Tries once more to write what is queued, then closes every file. Answers how many records
   * could not be written (each refused to its caller already): none unless the disk is full.
   */
  async close(): Promise<number> {
    await this.flushed();
    if (this.#queue.length > 0 && !this.#failure) {
      this.#schedule();
      await this.flushed();
    }
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#retry = undefined;
    const unwritten = this.#queue.filter((entry) => entry.bytes).length;
    this.#queue = [];
    for (const fd of [...this.#older.splice(0), this.#fd]) this.#closeQuietly(fd);
    this.#failure ??= new Error('the journal is closed');
    return unwritten;
  }

  #closeQuietly(fd: number): void {
    try {
      this.#fs.close(fd);
    } catch {
      // Nothing is written through it any more.
    }
  }
}
