// The contenders, each an HTTP app over one data set, each started in its own process:
// - store: `@store/adapter-express` mounted at the root of an Express 5 app;
// - baseline: hand-written Express 5 routes running the same queries, pre-compiled once with
//   `@store/query`, on the same engine (what the store could cost at best on this engine);
// - floor: the same routes over plain mingo on plain arrays (a naive embedded store; floor.mjs);
// - jsonServer: json-server 0.17's router on its own Express 4 app, without its `defaults()`
//   middlewares (logger, static files, CORS, no-cache): the cheapest json-server there is;
// - jsonServerV1: json-server v1 (1.x beta), started as its `json-server <file>` command starts it,
//   over a temporary copy of the data set (json-server-v1.mjs);
// - feathers: Feathers v5 on Express with one `@feathersjs/memory` service per collection
//   (feathers.mjs);
// - limit: a bare `node:http` server answering the store's bytes from a table (limit.mjs);
// - storeCli: the `store` command's own server, plain `node:http` (store-cli.mjs).
import { createRequire } from 'node:module';
import { createStore } from '@store/adapter-express';
import express from 'express';
import { forJsonServer, INDEXED } from './data.mjs';
import { floorApp } from './floor.mjs';
import { employeesOf, handWrittenApp, joinEmployees } from './hand-written.mjs';
import { jsonServerV1App } from './json-server-v1.mjs';
import { limitApp } from './limit.mjs';
import { storeCliApp } from './store-cli.mjs';
import { storeConfig } from './store-config.mjs';

const require = createRequire(import.meta.url);

async function storeApp(db) {
  const store = createStore(storeConfig(db));
  await store.ready;
  const app = express();
  app.use(store);
  return { app, close: () => store.close() };
}

/** Find options of a compiled query, as the store passes them to the collection. */
const findOptions = ({ sort, skip, limit }) => ({ sort, skip, limit });

/**
 * `$populate=employees` by hand: the page, one `$in` query for its children, a join by id. The
 * baseline's route, and the baseline of `bench/inprocess.mjs` too.
 */
export async function companiesWithEmployees(db, page) {
  const companies = await db.collection('companies').find(page.filter, findOptions(page)).toArray();
  const ids = companies.map((company) => company._id);
  return joinEmployees(companies, await db.collection('employees').find(employeesOf(ids)).toArray());
}

/** A storage-interface collection as the hand-written routes' data layer. */
function engineCollection(collection) {
  return {
    list: (query) => collection.find(query.filter, findOptions(query)).toArray(),
    count: (query) => collection.countDocuments(query.filter),
    get: (id) => collection.findOne({ _id: id }),
    insert: (doc) => collection.insertOne(doc),
  };
}

async function baselineApp(db, collections) {
  // The indexes the store ensures for its declared relation (core: reference-indexes.ts) and
  // the one the indexed resource declares.
  await db.collection('employees').createIndex({ company_id: 1 });
  await db.collection('employees').createIndex({ company_ids: 1 });
  if (collections[INDEXED] !== undefined) await db.collection(INDEXED).createIndex({ n: 1 });
  const app = handWrittenApp(collections, {
    collection: (name) => engineCollection(db.collection(name)),
    companies: (page) => companiesWithEmployees(db, page),
  });
  return { app, close: async () => {} };
}

function jsonServerApp(collections) {
  const jsonServer = require('json-server');
  const app = jsonServer.create();
  app.use(jsonServer.router(forJsonServer(collections), { foreignKeySuffix: '_id' }));
  return { app, close: async () => {} };
}

/**
 * How to start each contender: `engine` when it runs on the engine's db (loaded with the data
 * set by server.mjs; the others hold `collections` themselves). `start` resolves `{ app, close }`
 * (server.mjs listens) or `{ port, close }` (already listening).
 */
export const CONTENDERS = {
  store: { engine: true, start: ({ db }) => storeApp(db) },
  baseline: { engine: true, start: ({ db, collections }) => baselineApp(db, collections) },
  floor: { engine: false, start: ({ collections }) => floorApp(collections) },
  jsonServer: { engine: false, start: ({ collections }) => jsonServerApp(collections) },
  jsonServerV1: { engine: false, start: ({ collections }) => jsonServerV1App(collections) },
  // Loaded in its own process only: the other contenders' processes stay as they were.
  feathers: {
    engine: false,
    start: async ({ collections }) => (await import('./feathers.mjs')).feathersApp(collections),
  },
  limit: { engine: true, start: ({ db, dataset }) => limitApp(db, dataset) },
  storeCli: { engine: false, start: ({ collections }) => storeCliApp(collections) },
};
