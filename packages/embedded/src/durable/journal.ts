/**
 * The append-only journal with group commit: the records appended during one turn of the event
 * loop are written and synced together once it ends (`setImmediate`), and records appended
 * while that happens wait for the next sync, so concurrent writes share one `fdatasync`. The
 * write and sync are synchronous calls (about 0.2 ms here): two thread-pool round trips per
 * batch cost more than they save. Records reach the disk in the order they were appended,
 * across files too (after `switchTo`, the older file's records are synced first).
 */
import { closeSync, fdatasyncSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

interface Pending {
  file: JournalFile;
  bytes: Buffer;
  done: () => void;
  failed: (error: Error) => void;
}

interface JournalFile {
  path: string;
  handle: Promise<FileHandle>;
}

/** Syncs a directory so that a file created or renamed in it survives power loss. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Creates `path` if needed and makes sure it is on disk (with its directory entry). */
export function touchFile(path: string, dir: string): void {
  const fd = openSync(path, 'a');
  try {
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  syncDirectory(dir);
}

export class Journal {
  #file: JournalFile;
  #bytes: number;
  #queue: Pending[] = [];
  #running: Promise<void> | undefined;
  #failure: Error | undefined;
  readonly #opened: JournalFile[] = [];

  /** Appends to the file at `path` (which must exist), `size` bytes long. */
  constructor(path: string, size: number) {
    this.#file = this.#openFile(path);
    this.#bytes = size;
  }

  /** Bytes in the current file. */
  get size(): number {
    return this.#bytes;
  }

  /** The path of the current file. */
  get path(): string {
    return this.#file.path;
  }

  #openFile(path: string): JournalFile {
    const file = { path, handle: open(path, 'a') };
    file.handle.catch(() => undefined); // reported by the write that needs it
    this.#opened.push(file);
    return file;
  }

  /** Sends later appends to a new file at `path` (created and synced by the caller). */
  switchTo(path: string): void {
    this.#file = this.#openFile(path);
    this.#bytes = 0;
  }

  /** Resolves once `bytes` is on disk; rejects (and so does every later append) if writing failed. */
  append(bytes: Buffer): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    this.#bytes += bytes.length;
    return new Promise((done, failed) => {
      this.#queue.push({ file: this.#file, bytes, done, failed });
      this.#running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#drain());
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        try {
          await this.#write(batch);
          for (const pending of batch) pending.done();
        } catch (error) {
          this.#failure = new Error(`writing the journal failed: ${(error as Error).message}`, {
            cause: error,
          });
          for (const pending of [...batch, ...this.#queue]) pending.failed(this.#failure);
          this.#queue = [];
        }
      }
    } finally {
      this.#running = undefined;
    }
  }

  /** Writes a batch file by file, in order, syncing each file before the next is written. */
  async #write(batch: Pending[]): Promise<void> {
    let start = 0;
    while (start < batch.length) {
      const file = batch[start]?.file;
      let end = start;
      while (end < batch.length && batch[end]?.file === file) end += 1;
      if (!file) break;
      const handle = await file.handle;
      const bytes = Buffer.concat(batch.slice(start, end).map((pending) => pending.bytes));
      let written = 0;
      while (written < bytes.length) {
        written += writeSync(handle.fd, bytes, written, bytes.length - written);
      }
      fdatasyncSync(handle.fd);
      start = end;
    }
  }

  /** Resolves when everything appended so far is on disk. */
  async flushed(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Closes the files of earlier `switchTo`s (their records are synced first). */
  async closeOlder(): Promise<void> {
    await this.flushed();
    const older = this.#opened.filter((file) => file !== this.#file);
    this.#opened.splice(0, this.#opened.length, this.#file);
    await Promise.all(older.map(async (file) => (await file.handle.catch(() => undefined))?.close()));
  }

  /** Syncs what is pending and closes every file. */
  async close(): Promise<void> {
    await this.flushed();
    await Promise.all(this.#opened.map(async (file) => (await file.handle.catch(() => undefined))?.close()));
    this.#opened.length = 0;
  }
}
