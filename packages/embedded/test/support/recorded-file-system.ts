/**
 * A file system that records every call the durable write path makes (over the real one, in
 * one directory), and a model that replays a prefix of the record: what a directory holds when
 * the process is killed at any call, or at any byte of a write (everything written survives, as
 * it does a `kill -9`), or when the power is cut there (only what was synced survives: file
 * contents at their last `fdatasync`, names at their directory's last `fsync`).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type FileSystem, nodeFileSystem } from '@store/embedded';

export type Call =
  | { op: 'open'; name: string; flags: 'a' | 'w' | 'r'; fd: number; directory: boolean }
  | { op: 'write'; fd: number; bytes: Buffer }
  | { op: 'datasync' | 'sync' | 'close'; fd: number }
  | { op: 'truncate'; fd: number; length: number }
  | { op: 'rename'; from: string; to: string }
  | { op: 'unlink'; name: string }
  /** Not a call: the test saw write `id` acknowledged here. */
  | { op: 'ack'; id: string };

/** Wraps the real file system of `dir`, pushing each call made through it onto `calls`. */
export function recordingFileSystem(dir: string, calls: Call[]): FileSystem {
  const real = nodeFileSystem;
  return {
    open(path, flags) {
      const fd = real.open(path, flags);
      const directory = path === dir;
      calls.push({ op: 'open', name: directory ? '.' : basename(path), flags, fd, directory });
      return fd;
    },
    write(fd, bytes, offset, length) {
      const written = real.write(fd, bytes, offset, length);
      calls.push({ op: 'write', fd, bytes: Buffer.from(bytes.subarray(offset, offset + written)) });
      return written;
    },
    datasync(fd) {
      real.datasync(fd);
      calls.push({ op: 'datasync', fd });
    },
    async datasyncInBackground(fd) {
      await real.datasyncInBackground(fd);
      calls.push({ op: 'datasync', fd });
    },
    sync(fd) {
      real.sync(fd);
      calls.push({ op: 'sync', fd });
    },
    truncate(fd, length) {
      real.truncate(fd, length);
      calls.push({ op: 'truncate', fd, length });
    },
    close(fd) {
      real.close(fd);
      calls.push({ op: 'close', fd });
    },
    rename(from, to) {
      real.rename(from, to);
      calls.push({ op: 'rename', from: basename(from), to: basename(to) });
    },
    unlink(path) {
      real.unlink(path);
      calls.push({ op: 'unlink', name: basename(path) });
    },
  };
}

interface Inode {
  content: Buffer;
  /** The content as of its last sync. */
  synced: Buffer;
}

interface Open {
  inode?: Inode;
  append: boolean;
  position: number;
}

/** The directory as a replayed prefix of calls leaves it. */
export class DirectoryModel {
  names = new Map<string, Inode>();
  /** The names as of the directory's last sync. */
  syncedNames = new Map<string, Inode>();
  readonly #fds = new Map<number, Open>();
  readonly acked = new Set<string>();

  /** Starts from files that exist, synced, before the first call. */
  constructor(files: Record<string, Buffer>) {
    for (const [name, content] of Object.entries(files)) {
      this.names.set(name, { content, synced: content });
    }
    this.syncedNames = new Map(this.names);
  }

  /** A copy that replays on its own (contents are never changed in place, so they are shared). */
  clone(): DirectoryModel {
    const copy = new DirectoryModel({});
    const inodes = new Map<Inode, Inode>();
    const same = (inode: Inode): Inode => {
      let found = inodes.get(inode);
      if (!found) {
        found = { ...inode };
        inodes.set(inode, found);
      }
      return found;
    };
    copy.names = new Map([...this.names].map(([name, inode]) => [name, same(inode)]));
    copy.syncedNames = new Map([...this.syncedNames].map(([name, inode]) => [name, same(inode)]));
    for (const [fd, open] of this.#fds) {
      copy.#fds.set(fd, { ...open, inode: open.inode && same(open.inode) });
    }
    for (const id of this.acked) copy.acked.add(id);
    return copy;
  }

  /** Replays `call`; of a write, only its first `bytes` bytes (all by default). */
  apply(call: Call, bytes?: number): void {
    switch (call.op) {
      case 'open': {
        if (call.directory) {
          this.#fds.set(call.fd, { append: false, position: 0 });
          return;
        }
        let inode = this.names.get(call.name);
        if (!inode) {
          inode = { content: Buffer.alloc(0), synced: Buffer.alloc(0) };
          this.names.set(call.name, inode);
        } else if (call.flags === 'w') {
          inode.content = Buffer.alloc(0);
        }
        this.#fds.set(call.fd, { inode, append: call.flags === 'a', position: 0 });
        return;
      }
      case 'write': {
        const open = this.#fds.get(call.fd);
        if (!open?.inode) throw new Error(`write to fd ${call.fd}, not open on a file`);
        const part = call.bytes.subarray(0, bytes ?? call.bytes.length);
        const at = open.append ? open.inode.content.length : open.position;
        const content = Buffer.alloc(Math.max(open.inode.content.length, at + part.length));
        open.inode.content.copy(content);
        part.copy(content, at);
        open.inode.content = content;
        open.position = at + part.length;
        return;
      }
      case 'datasync':
      case 'sync': {
        const open = this.#fds.get(call.fd);
        if (open?.inode) open.inode.synced = open.inode.content;
        else this.syncedNames = new Map(this.names);
        return;
      }
      case 'truncate': {
        const open = this.#fds.get(call.fd);
        if (open?.inode) open.inode.content = open.inode.content.subarray(0, call.length);
        return;
      }
      case 'close':
        this.#fds.delete(call.fd);
        return;
      case 'rename': {
        const inode = this.names.get(call.from);
        if (inode) this.names.set(call.to, inode);
        this.names.delete(call.from);
        return;
      }
      case 'unlink':
        this.names.delete(call.name);
        return;
      case 'ack':
        this.acked.add(call.id);
        return;
    }
  }

  /**
   * The files left: after a kill (every name, every byte written), or after a power cut with
   * names and contents each as written or as last synced (the four ways are all checked).
   */
  files(names: 'written' | 'synced', contents: 'written' | 'synced'): Map<string, Buffer> {
    const source = names === 'written' ? this.names : this.syncedNames;
    return new Map(
      [...source].map(([name, inode]) => [name, contents === 'written' ? inode.content : inode.synced]),
    );
  }
}

/** Makes `dir` hold exactly `files`. */
export function writeDirectory(dir: string, files: Map<string, Buffer>): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of files) writeFileSync(join(dir, name), content);
}
