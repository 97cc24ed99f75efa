import type { PopulateDb, PopulateDocument, PopulateFindOptions } from '../../src/index';

/** One `find` call seen by {@link countingDb}. */
export interface FindCall {
  collection: string;
  filter: PopulateDocument;
  options: PopulateFindOptions | undefined;
}

/** Wraps any database so a test can count and inspect the `find` calls populate makes. */
export function countingDb(db: PopulateDb): { db: PopulateDb; calls: FindCall[] } {
  const calls: FindCall[] = [];
  return {
    calls,
    db: {
      collection(name) {
        const inner = db.collection(name);
        return {
          find(filter, options) {
            calls.push({ collection: name, filter, options });
            return inner.find(filter, options);
          },
        };
      },
    },
  };
}
