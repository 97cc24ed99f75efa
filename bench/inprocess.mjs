// node bench/inprocess.mjs [case ...]   (cases: get-by-id, create, populate, list-filter,
// range-sort-indexed; default: all)
//
// The store's own per-request cost, without HTTP: `createStoreHandler()` called in a loop on the
// embedded engine, against what the baseline's route does on the same engine (its engine call
// and `JSON.stringify`). Prints microseconds per request for each. Run it under
// `node --cpu-prof --cpu-prof-dir=bench/profiles bench/inprocess.mjs <case>` to profile the
// store's code alone (`SIDE=store` runs only the store's calls, so the profile is all its own).
// Runs against the BUILT packages (`pnpm build` first).
import { newId } from '@store/common';
import { createStoreHandler } from '@store/core';
import { createEmbeddedDb } from '@store/embedded';
import { compileQuery } from '@store/query';
import { NEW_ITEM, QUERIES } from './lib/cases.mjs';
import { companiesWithEmployees } from './lib/contenders.mjs';
import { DATASETS, INDEXED, sampleIds } from './lib/data.mjs';
import { microsecondsPerCall, storeRequest as request } from './lib/in-process.mjs';
import { RESOURCES } from './lib/store-config.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** Alternating blocks per round, each `calls / BLOCKS` calls of the store, then of the baseline. */
const BLOCKS = 50;
const BODY = JSON.stringify(NEW_ITEM);

async function loaded(dataset) {
  const db = createEmbeddedDb();
  for (const [name, docs] of Object.entries(DATASETS[dataset]())) {
    for (const doc of docs) await db.collection(name).insertOne({ ...doc });
  }
  return db;
}

/** A list request of the store against the baseline's `find` of the same query compiled once. */
function listCase(dataset, collection, rawQuery) {
  return {
    dataset,
    calls: 5_000,
    make(db) {
      const query = compileQuery(rawQuery);
      const { sort, skip, limit } = query;
      const docs = db.collection(collection);
      return {
        store: (handler) => handler(request('GET', `/${collection}`, rawQuery)),
        baseline: async () => JSON.stringify(await docs.find(query.filter, { sort, skip, limit }).toArray()),
      };
    },
  };
}

/** Each case: its data set, how many calls per round, and the store's and baseline's call. */
const CASES = {
  'get-by-id': {
    dataset: 'items-1k',
    calls: 50_000,
    make(db) {
      const ids = sampleIds(DATASETS['items-1k']().items);
      const items = db.collection('items');
      return {
        store: (handler, i) => handler(request('GET', `/items/${ids[i % ids.length]}`)),
        baseline: async (i) => JSON.stringify(await items.findOne({ _id: ids[i % ids.length] })),
      };
    },
  },
  create: {
    dataset: 'items-1k',
    calls: 20_000,
    make(db) {
      const items = db.collection('items');
      return {
        store: (handler) => handler(request('POST', '/items', '', BODY)),
        baseline: async () => {
          const doc = { _id: newId(), ...JSON.parse(BODY) };
          await items.insertOne(doc);
          return JSON.stringify(doc);
        },
      };
    },
  },
  'list-filter': listCase('items-10k', 'items', QUERIES.list),
  'range-sort-indexed': listCase('indexed-items-10k', INDEXED, QUERIES.range),
  populate: {
    dataset: 'companies',
    calls: 1_000,
    make(db) {
      const page = compileQuery(QUERIES.populate);
      return {
        store: (handler) => handler(request('GET', '/companies', QUERIES.populate)),
        baseline: async () => JSON.stringify(await companiesWithEmployees(db, page)),
      };
    },
  },
};

async function run(name) {
  const { dataset, calls, make } = CASES[name];
  const db = await loaded(dataset);
  const handler = createStoreHandler({
    db,
    resources: RESOURCES,
    logger: { warn() {}, error: console.error },
  });
  await handler.ready;
  const { store, baseline } = make(db);
  const check = await store(handler, 0);
  if (check.status >= 400) throw new Error(`${name}: the store answered ${check.status} ${check.body}`);
  // Short alternating blocks: a slow spell of a shared machine weighs on both sides alike.
  const block = Math.max(1, Math.round(calls / BLOCKS));
  const spent = { store: 0, baseline: 0 };
  const side = process.env.SIDE;
  for (let round = 0; round < ROUNDS * BLOCKS; round++) {
    if (side !== 'baseline') spent.store += await microsecondsPerCall(block, (i) => store(handler, i));
    if (side !== 'store') spent.baseline += await microsecondsPerCall(block, baseline);
  }
  const [storeUs, baselineUs] = [spent.store, spent.baseline].map((total) => total / (ROUNDS * BLOCKS));
  const ratio = (baselineUs / storeUs).toFixed(2);
  console.log(
    `${name}: store ${storeUs.toFixed(1)} µs, baseline ${baselineUs.toFixed(1)} µs (baseline/store ${ratio})`,
  );
  await handler.close();
}

const names = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
for (const name of names.length > 0 ? names : Object.keys(CASES)) await run(name);
