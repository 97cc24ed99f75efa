/** The embedded storage engine: MongoDB's query and update semantics over in-memory data. */

export { EmbeddedCollection } from './collection';
export { createEmbeddedDb, type EmbeddedDb, isEmbeddedDb } from './db';
export { EMBEDDED_ERROR_CODES, EmbeddedDbError, type EmbeddedErrorCodeName } from './errors';
