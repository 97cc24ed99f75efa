/**
 * The engine's filter and projection semantics outside any collection: for code that tests
 * documents it already holds (the store's change events test each change against each
 * subscriber's filter). No indexes: `$text` and `$nearSphere` are refused as in a collection
 * without the index they need.
 */
import type { Document } from '@store/common';
import { compileFilter } from './compile-filter';
import { CollectionIndexes } from './indexes';
import { readDocuments } from './read-documents';

/**
 * The indexes of no collection, shared by every test: the operators compiled for a set of
 * indexes are cached per instance, so one instance means one set for every subscriber (a new
 * one per test cost each event stream about 10 kB and 0.2 ms).
 */
const NO_INDEXES = new CollectionIndexes();

/** A test of `filter` (MongoDB's matching); a bad filter throws an `EmbeddedDbError` (`BadValue`). */
export function documentTest(filter: Document): (doc: Document) => boolean {
  const compiled = compileFilter(filter, NO_INDEXES);
  if (compiled.near !== undefined) compiled.test({});
  return compiled.test;
}

/** A copy of `doc` with `projection` applied, as `find` would return it. */
export function projectDocument(doc: Document, projection: Document): Document {
  return readDocuments([doc], undefined, { projection })[0] as Document;
}
