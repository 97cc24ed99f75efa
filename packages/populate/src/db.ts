/**
 * The database surface `@store/populate` needs: a structural subset of the official driver's
 * `Db` / `Collection` (and of `@store/core`'s storage interface), so the driver's `Db`, core's
 * embedded engine and a test double all fit without this package importing any of them.
 */

/** A stored document or a filter, as plain data. */
export type PopulateDocument = Record<string, unknown>;

/** The `find` options populate uses. */
export interface PopulateFindOptions {
  sort?: Record<string, 1 | -1>;
  limit?: number;
}

/** The one collection method populate calls. */
export interface PopulateCollection {
  find(filter: PopulateDocument, options?: PopulateFindOptions): { toArray(): Promise<PopulateDocument[]> };
}

/** What populate receives as its database. */
export interface PopulateDb {
  collection(name: string): PopulateCollection;
}
