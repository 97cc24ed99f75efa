/**
 * The engines populate's suites run on: `@store/test-kit`'s `describeEngines` (the embedded
 * engine always, a real MongoDB when one is available, otherwise that tier is skipped by name).
 */
import type { StoreDb } from '@store/common';

export { describeEngines, type EngineUnderTest } from '@store/test-kit';

/** Inserts `docs` into `collection`, in order. */
export async function seed(db: StoreDb, collection: string, docs: Record<string, unknown>[]): Promise<void> {
  for (const doc of docs) await db.collection(collection).insertOne(doc);
}
