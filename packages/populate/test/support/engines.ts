/**
 * The engines populate's suites run on. Until `@store/core`'s embedded engine and its
 * `describeEngines` helper are committed, the only engine is the mingo double.
 */
import { describe } from 'vitest';
import { createMingoDb, type SeedableDb } from './mingo-db';

/** One engine as a suite sees it. */
export interface TestEngine {
  name: string;
  createDb(): Promise<SeedableDb>;
}

/** Runs `body` once per engine inside `describe('<title> [<engine>]')`. */
export function describeEngines(title: string, body: (engine: TestEngine) => void): void {
  describe(`${title} [mingo double]`, () =>
    body({ name: 'mingo double', createDb: async () => createMingoDb() }));
}

/** Inserts `docs` into `collection`, in order. */
export async function seed(
  db: SeedableDb,
  collection: string,
  docs: Record<string, unknown>[],
): Promise<void> {
  for (const doc of docs) await db.collection(collection).insertOne(doc);
}
