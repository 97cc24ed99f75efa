/**
 * `@store/embedded`: MongoDB's query, update and index semantics over in-memory data (mingo
 * for the operators), implementing the `@store/common` storage interface, a subset of the
 * official driver's `Db` / `Collection`. Usable on its own: `createEmbeddedDb()`.
 */

export type { AggregateOptions } from './aggregate';
export { EmbeddedCollection } from './collection';
export {
  createEmbeddedDb,
  type EmbeddedDb,
  type EmbeddedDbOptions,
  isEmbeddedDb,
  TEMPORARY_COLLECTION_PREFIX,
} from './db';
export type { CountOptions, DistinctOptions } from './distinct';
export { backupDataDirectory, type DataDirectoryBackup } from './durable/backup';
export { type DataErrorReason, EmbeddedDataError } from './durable/data-error';
export { type FileSystem, nodeFileSystem } from './durable/file-system';
export {
  EMBEDDED_ERROR_CODES,
  EmbeddedArgumentError,
  EmbeddedDbError,
  type EmbeddedErrorCodeName,
} from './errors';
export { KNOWN_OPTIONS } from './known-options';
export { documentTest, projectDocument } from './match-documents';
