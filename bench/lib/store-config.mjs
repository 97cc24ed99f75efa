// The store's configuration in the bench: the same for the store contender, the limit contender
// (which asks the store once per request path at start-up) and `bench/inprocess.mjs`.
import { resolveStoreOptions } from '@store/core';
import { INDEXED } from './data.mjs';
import { realtimeLimits } from './realtime-limits.mjs';

const quiet = { warn: () => {}, error: (message, ...details) => console.error(message, ...details) };

/**
 * `indexes: ['n']` for the indexed resource, if the store knows the resource option (issue 19
 * adds it); until then the resource is declared without it, and its cases run unindexed.
 */
function indexedResource() {
  const indexed = { indexes: ['n'] };
  try {
    resolveStoreOptions({ resources: { [INDEXED]: indexed }, logger: quiet });
    return indexed;
  } catch {
    return {};
  }
}

const indexed = indexedResource();

/** Whether the store declares the index on `indexed-items` (false: its cases run unindexed). */
export const STORE_INDEXES = Object.hasOwn(indexed, 'indexes');

/** The store's resources: `companies` declares its `employees` relation (indexed at start-up). */
export const RESOURCES = {
  items: {},
  [INDEXED]: indexed,
  companies: { population: { employees: {} } },
  employees: {},
};

/**
 * Room for the realtime case's 1,000 idle streams and its probe, all anonymous and from
 * 127.0.0.1 (per-client caps raised where the store has them).
 */
const REALTIME = realtimeLimits(resolveStoreOptions, 1100);

/** The store's config over `db`. */
export const storeConfig = (db) => ({ db, resources: RESOURCES, logger: quiet, realtime: REALTIME });
