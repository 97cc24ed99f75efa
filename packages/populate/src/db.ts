/**
 * The database surface `@store/populate` needs: only `find`, taken from `@store/common`'s storage
 * interface (itself a subset of the official driver's `Db` / `Collection`), so the driver's `Db`,
 * the embedded engine and a counting test double all fit.
 */
import type { Document, FindOptions, StoreCollection } from '@store/common';

/** A stored document or a filter, as plain data. */
export type PopulateDocument = Document;

/** The `find` options populate uses. */
export type PopulateFindOptions = Pick<FindOptions, 'sort' | 'limit'>;

/** The one collection method populate calls. */
export type PopulateCollection = Pick<StoreCollection, 'find'>;

/** What populate receives as its database. */
export interface PopulateDb {
  collection(name: string): PopulateCollection;
}
