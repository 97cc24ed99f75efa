/** The storage layer of `@store/core`: the interface, the embedded engine and `openStorage`. */

export {
  createEmbeddedDb,
  EMBEDDED_ERROR_CODES,
  type EmbeddedDb,
  EmbeddedDbError,
  type EmbeddedErrorCodeName,
  isEmbeddedDb,
} from './embedded/index';
export { type OpenedStorage, openStorage, type StorageOption, StorageOptionError } from './open-storage';
// Every export of types.ts is the storage interface; core's index re-exports the same file.
export type * from './types';
