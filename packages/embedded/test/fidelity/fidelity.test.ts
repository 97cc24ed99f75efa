/**
 * Runs every case of the fidelity table (the MongoDB manual's documented answers) on every
 * engine: the embedded engine must give the manual's answer, except for the cases pinned as
 * `embedded differs: ...` (docs/embedded-engine.md), where it must give today's answer; a real
 * MongoDB, when one is reachable, must give the manual's answer everywhere. The pass count is
 * printed after each engine's run.
 */
import type { Document, StoreCollection, StoreDb } from '@store/common';
import { describeEngines } from '@store/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FidelityCase, FidelityOperation } from './case-types';
import { FIDELITY_CASES } from './cases';

const ALL_CASES = Object.values(FIDELITY_CASES).flat();

/** A value with every plain object turned into its entries, so key order is compared too. */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).map(([key, inner]) => [key, ordered(inner)]);
  }
  return value;
}

async function seeded(db: StoreDb, name: string, entry: FidelityCase): Promise<StoreCollection> {
  const collection = db.collection(name);
  for (const [spec, options] of entry.indexes ?? []) await collection.createIndex(spec, options);
  for (const doc of entry.docs) await collection.insertOne(doc);
  return collection;
}

async function answer(collection: StoreCollection, op: FidelityOperation): Promise<unknown> {
  if ('count' in op) return collection.countDocuments(op.count);
  if ('update' in op) {
    const options = op.upsert ? { upsert: true } : {};
    await collection.updateOne(op.filter, op.update, options);
    return collection.find({}, { sort: { _id: 1 } }).toArray();
  }
  const { find: filter, ...options } = op;
  const sort = 'sort' in op ? op.sort : { _id: 1 as const };
  const docs = await collection.find(filter, { ...options, sort }).toArray();
  return op.projection ? docs : docs.map((doc: Document) => doc._id);
}

async function outcome(collection: StoreCollection, op: FidelityOperation): Promise<unknown> {
  try {
    return await answer(collection, op);
  } catch (error) {
    return { error: (error as { code?: unknown }).code };
  }
}

describeEngines(
  'the MongoDB manual, case by case',
  (engine) => {
    let db: StoreDb;
    let passed = 0;
    let pinned = 0;
    beforeAll(async () => {
      db = await engine.createDb();
    });
    afterAll(() => {
      const differs = ALL_CASES.filter((entry) => entry.embedded !== undefined).length;
      console.info(
        `fidelity [${engine.name}]: ${passed} of ${ALL_CASES.length} cases answered as the manual does` +
          (engine.name === 'mongodb' ? '' : `, ${pinned} of ${differs} known differences as pinned`),
      );
    });

    let counter = 0;
    for (const [group, cases] of Object.entries(FIDELITY_CASES)) {
      describe(group, () => {
        for (const entry of cases) {
          const differs = entry.embedded !== undefined && engine.name !== 'mongodb';
          const name = `c${counter++}`;
          it(differs ? `embedded differs: ${entry.name}` : entry.name, async () => {
            const collection = await seeded(db, name, entry);
            const got = await outcome(collection, entry.op);
            expect(ordered(got)).toEqual(ordered(differs ? entry.embedded : entry.expected));
            if (differs) pinned += 1;
            else passed += 1;
          });
        }
      });
    }
  },
  { driverTiers: false },
);

describe('the fidelity table', () => {
  it('holds at least 150 cases from the manual', () => {
    expect(ALL_CASES.length).toBeGreaterThanOrEqual(150);
  });
});
