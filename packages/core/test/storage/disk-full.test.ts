/**
 * A full disk under the store: a write the database refuses with MongoDB's `OutOfDiskSpace`
 * (14031) answers 507 `disk_full` with a problem that says what to do, while reads still answer
 * 200; on the embedded engine (its data directory's disk made full through its file-system
 * layer) writes answer again by themselves once space is back; on a driver `Db` the server's
 * error is answered the same way.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreCollection } from '@store/common';
import { createEmbeddedDb, type FileSystem, nodeFileSystem } from '@store/embedded';
import { afterEach, describe, expect, it } from 'vitest';
import { createStoreHandler } from '../../src/handler/handler';
import type { StoreRequest } from '../../src/model/http';

const quiet = { warn() {}, error() {} };
const get = (path: string): StoreRequest => ({ method: 'GET', path, rawQuery: '', headers: {} });
const post = (path: string, body: unknown): StoreRequest => ({
  method: 'POST',
  path,
  rawQuery: '',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** The real file system, whose writes fail with ENOSPC while `full` is set. */
function fillableDisk(): { full: boolean; fileSystem: FileSystem } {
  const disk = {
    full: false,
    fileSystem: {
      ...nodeFileSystem,
      write(fd: number, bytes: Uint8Array, offset: number, length: number) {
        if (disk.full) {
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        }
        return nodeFileSystem.write(fd, bytes, offset, length);
      },
    },
  };
  return disk;
}

const handlers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

describe('a full disk', () => {
  it('answers a write 507 disk_full on the embedded engine while reads answer 200, and writes again once space is back', async () => {
    const disk = fillableDisk();
    const db = createEmbeddedDb({
      dir: mkdtempSync(join(tmpdir(), 'store-disk-full-')),
      fileSystem: disk.fileSystem,
      warn: () => undefined,
    });
    const handle = createStoreHandler({ db, logger: quiet });
    handlers.push({
      async close() {
        await handle.close();
        await db.close();
      },
    });
    expect((await handle(post('/posts', { _id: 'p1', title: 'kept' })))?.status).toBe(201);

    disk.full = true;
    const refused = await handle(post('/posts', { _id: 'p2', title: 'refused' }));
    expect(refused?.status).toBe(507);
    expect(refused?.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(String(refused?.body))).toMatchObject({
      status: 507,
      code: 'disk_full',
      title: 'Insufficient Storage',
      detail: expect.stringMatching(/disk is full.*read before sending it again.*resume by themselves/),
    });
    const read = await handle(get('/posts/p1'));
    expect(read?.status).toBe(200);
    expect(JSON.parse(String(read?.body))).toEqual({ _id: 'p1', title: 'kept' });

    disk.full = false;
    expect((await handle(post('/posts', { _id: 'p3', title: 'after' })))?.status).toBe(201);
  });

  it('answers a driver error with code 14031 (OutOfDiskSpace) 507 disk_full, while reads answer 200', async () => {
    const inner = createEmbeddedDb();
    const outOfDiskSpace = () =>
      Object.assign(new Error('Plan executor error during insert :: caused by :: out of disk space'), {
        name: 'MongoServerError',
        code: 14031,
        codeName: 'OutOfDiskSpace',
      });
    const writes = new Set(['insertOne', 'insertMany', 'findOneAndReplace', 'findOneAndUpdate']);
    const db = {
      databaseName: 'shop',
      client: { options: {} },
      command: async () => ({ ok: 1 }),
      collection: (name: string): StoreCollection =>
        new Proxy(inner.collection(name), {
          get(target, key, receiver) {
            const value = Reflect.get(target, key, receiver);
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              if (writes.has(String(key))) return Promise.reject(outOfDiskSpace());
              return value.apply(target, args);
            };
          },
        }),
    };
    await inner.collection('posts').insertOne({ _id: 'p1', title: 'kept' });
    const handle = createStoreHandler({ db: db as never, logger: quiet });
    handlers.push(handle);
    const refused = await handle(post('/posts', { _id: 'p2', title: 'refused' }));
    expect(refused?.status).toBe(507);
    expect(JSON.parse(String(refused?.body))).toMatchObject({ status: 507, code: 'disk_full' });
    expect((await handle(get('/posts/p1')))?.status).toBe(200);
  });
});
