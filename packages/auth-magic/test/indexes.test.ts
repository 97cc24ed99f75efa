import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
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
  it
    .skipIf(engine.name === 'mongodb')
    .each(['svc-magic-links', 'svc-magic-codes', 'svc-sessions', 'svc-rate-limits'])(
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

  it('creates them once per deps, however many flows start at once', async () => {
    const t = await harness(engine);
    const calls: string[] = [];
    const db = {
      collection(name: string) {
        const real = t.db.collection(name);
        return Object.assign(Object.create(real), {
          createIndex: (spec: Record<string, 1 | -1>, options?: object) => {
            calls.push(name);
            return real.createIndex(spec, options);
          },
        });
      },
    };
    const deps = { db, options: t.options };
    await Promise.all([ensureAuthIndexes(deps), ensureAuthIndexes(deps), ensureAuthIndexes(deps)]);
    await ensureAuthIndexes(deps);
    expect(calls.length).toBe(11);
  });
});
