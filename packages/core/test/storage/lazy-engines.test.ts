import { afterEach, describe, expect, it, vi } from 'vitest';

/** Makes `name` fail to load, as it does when the application never installed it. */
function notInstalled(name: string) {
  vi.doMock(name, () => {
    throw Object.assign(new Error(`Cannot find package '${name}'`), { code: 'ERR_MODULE_NOT_FOUND' });
  });
}

describe('engines are loaded only when used', () => {
  afterEach(() => {
    vi.doUnmock('mongodb');
    vi.doUnmock('@store/embedded');
    vi.resetModules();
  });

  it('opens the embedded engine without the mongodb driver installed', async () => {
    notInstalled('mongodb');
    const { openStorage } = await import('../../src/storage/open-storage');
    const storage = await openStorage(undefined);
    await storage.db.collection('posts').insertOne({ _id: 1 });
    expect(await storage.db.collection('posts').countDocuments({})).toBe(1);
    await storage.close();
  });

  it('uses a given database without loading @store/embedded', async () => {
    notInstalled('@store/embedded');
    const { openStorage } = await import('../../src/storage/open-storage');
    const db = { collection: () => ({}) } as never;
    expect((await openStorage(db)).db).toBe(db);
  });
});
