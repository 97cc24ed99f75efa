import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
import { SECRET_RETENTION_SECONDS } from '../src/deps';
import { ensureAuthIndexes } from '../src/index';
import { harness } from './support/harness';

describeEngines('indexes', (engine) => {
  it.each(['svc-magic-links', 'svc-magic-codes', 'svc-sessions'])(
    'makes hashes unique in %s',
    async (name) => {
      const t = await harness(engine);
      await ensureAuthIndexes(t.deps);
      const records = t.db.collection(name);
      await records.insertOne({ hash: 'h1', expiresAt: new Date(Date.now() + 60_000) });
      await expect(
        records.insertOne({ hash: 'h1', expiresAt: new Date(Date.now() + 60_000) }),
      ).rejects.toMatchObject({ code: 11000 });
    },
  );

  // MongoDB's TTL monitor sweeps once a minute, too slow for a test; the embedded engine sweeps at once.
  it.skipIf(engine.name === 'mongodb').each(['svc-sessions', 'svc-rate-limits'])(
    'lets expired records of %s vanish through a TTL index on expiresAt (embedded sweep)',
    async (name) => {
      const t = await harness(engine);
      await ensureAuthIndexes(t.deps);
      const records = t.db.collection(name);
      await records.insertOne({ hash: 'old', key: 'old', expiresAt: new Date(Date.now() - 1000) });
      await records.insertOne({ hash: 'new', key: 'new', expiresAt: new Date(Date.now() + 60_000) });
      expect((await records.find({}).toArray()).map((r) => r.hash)).toEqual(['new']);
    },
  );

  it.skipIf(engine.name === 'mongodb').each(['svc-magic-links', 'svc-magic-codes'])(
    'keeps expired secrets of %s for a day (they answer 410), then lets the TTL index remove them',
    async (name) => {
      const t = await harness(engine);
      await ensureAuthIndexes(t.deps);
      const records = t.db.collection(name);
      const ago = (ms: number) => new Date(Date.now() - ms);
      await records.insertOne({ hash: 'expired', expiresAt: ago(1000) });
      await records.insertOne({ hash: 'gone', expiresAt: ago(SECRET_RETENTION_SECONDS * 1000 + 1000) });
      expect((await records.find({}).toArray()).map((r) => r.hash)).toEqual(['expired']);
    },
  );

  it("replaces its own index when its options changed, and leaves the application's indexes alone", async () => {
    const t = await harness(engine);
    const codes = t.db.collection('svc-magic-codes');
    // As an earlier version left it: TTL 0 under the store's name; plus an index of the application.
    await codes.createIndex({ expiresAt: 1 }, { name: 'store_expiresAt_1', expireAfterSeconds: 0 });
    await codes.createIndex({ requestedBy: 1 }, { name: 'mine' });
    await ensureAuthIndexes(t.deps);
    const indexes = await codes.listIndexes().toArray();
    expect(indexes.find((index) => index.name === 'store_expiresAt_1')).toMatchObject({
      key: { expiresAt: 1 },
      expireAfterSeconds: SECRET_RETENTION_SECONDS,
    });
    expect(indexes.find((index) => index.name === 'mine')).toMatchObject({ key: { requestedBy: 1 } });
  });

  it('makes the user e-mail field unique, so one address never has two users', async () => {
    const t = await harness(engine);
    await ensureAuthIndexes(t.deps);
    const users = t.db.collection('users');
    await users.insertOne({ email: 'ada@example.test' });
    await users.insertOne({ name: 'no address' });
    await users.insertOne({ name: 'no address either' });
    await expect(users.insertOne({ email: 'ada@example.test' })).rejects.toMatchObject({ code: 11000 });
  });

  it('creates them once per deps, however many flows start at once', async () => {
    const t = await harness(engine);
    const calls: string[] = [];
    const db = {
      collection(name: string) {
        const real = t.db.collection(name);
        return new Proxy(real, {
          get(target, key) {
            const value = Reflect.get(target, key);
            if (key === 'createIndex') {
              return (spec: Record<string, 1 | -1>, options?: object) => {
                calls.push(name);
                return real.createIndex(spec, options);
              };
            }
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      },
    };
    const deps = { db, options: t.options };
    await Promise.all([ensureAuthIndexes(deps), ensureAuthIndexes(deps), ensureAuthIndexes(deps)]);
    await ensureAuthIndexes(deps);
    // secrets 3 + 3, poll token, user e-mail, sessions 3 (hash, userId, TTL), rate limits 2
    expect(calls.length).toBe(13);
  });
});
