/** The storage layer of `@store/core`: `openStorage` over the `db` option. */

export { type OpenedStorage, openStorage, type StorageOption } from './open-storage';
