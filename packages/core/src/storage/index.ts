/** The storage layer of `@store/core`: `openStorage` over the `db` option. */
export type { StorageOption } from '../model/config';

export { type OpenedStorage, openStorage } from './open-storage';
