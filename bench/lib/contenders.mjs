// The three contenders, each an HTTP app over one data set:
// - store: `@store/adapter-express` mounted at the root of an Express 5 app;
// - baseline: hand-written Express 5 routes running the same queries, pre-compiled once with
//   `@store/query`, on the same engine (the floor: what the store could cost at best);
// - jsonServer: json-server 0.17's router on its own Express 4 app, without its `defaults()`
//   middlewares (logger, static files, CORS, no-cache): the cheapest json-server there is.
import { createRequire } from 'node:module';
import { createStore } from '@store/adapter-express';
import { newId } from '@store/common';
import { compileQuery } from '@store/query';
import express from 'express';
import { QUERIES } from './cases.mjs';
import { forJsonServer } from './data.mjs';

const require = createRequire(import.meta.url);

/** The store's resources: `companies` declares its `employees` relation (indexed at start-up). */
export const RESOURCES = { items: {}, companies: { population: { employees: {} } }, employees: {} };

const quiet = { warn: () => {}, error: (message, ...details) => console.error(message, ...details) };

async function storeApp(db) {
  // Room for the realtime case's 1,000 idle streams and its latency probe.
  const store = createStore({ db, resources: RESOURCES, logger: quiet, realtime: { maxSubscribers: 1100 } });
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
  const filter = { $or: [{ company_id: { $in: ids } }, { company_ids: { $in: ids } }] };
  const byCompany = new Map(ids.map((id) => [id, []]));
  for (const employee of await db.collection('employees').find(filter).toArray()) {
    for (const id of [employee.company_id, ...(employee.company_ids ?? [])])
      byCompany.get(id)?.push(employee);
  }
  return companies.map((company) => ({ ...company, employees: byCompany.get(company._id) }));
}

/** The cheapest JSON answer: no ETag hashing or content negotiation (the store skips them too). */
function sendJson(res, status, data, headers = {}) {
  const body = JSON.stringify(data);
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
  res.end(body);
}

/** The request body parsed as JSON (the store reads bodies itself too, without body-parser). */
async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function baselineApp(db) {
  // The indexes the store ensures for its declared relation (core: reference-indexes.ts).
  await db.collection('employees').createIndex({ company_id: 1 });
  await db.collection('employees').createIndex({ company_ids: 1 });
  const list = compileQuery(QUERIES.list);
  const count = compileQuery(QUERIES.count);
  const page = compileQuery(QUERIES.populate);
  const items = db.collection('items');
  const app = express();
  app.get('/items', async (_req, res) => {
    sendJson(res, 200, await items.find(list.filter, findOptions(list)).toArray());
  });
  app.get('/items/count', async (_req, res) => {
    sendJson(res, 200, { count: await items.countDocuments(count.filter) });
  });
  app.get('/items/:id', async (req, res) => {
    const doc = await items.findOne({ _id: req.params.id });
    sendJson(res, doc ? 200 : 404, doc ?? { status: 404 });
  });
  app.post('/items', async (req, res) => {
    const doc = { _id: newId(), ...(await readJson(req)) };
    await items.insertOne(doc);
    sendJson(res, 201, doc, { location: `/items/${doc._id}` });
  });
  app.get('/companies', async (_req, res) => {
    sendJson(res, 200, await companiesWithEmployees(db, page));
  });
  return { app, close: async () => {} };
}

function jsonServerApp(collections) {
  const jsonServer = require('json-server');
  const app = jsonServer.create();
  app.use(jsonServer.router(forJsonServer(collections), { foreignKeySuffix: '_id' }));
  return { app, close: async () => {} };
}

/** Builds a contender's app over `collections` (already loaded into `db` for store and baseline). */
export const CONTENDERS = {
  store: ({ db }) => storeApp(db),
  baseline: ({ db }) => baselineApp(db),
  jsonServer: ({ collections }) => jsonServerApp(collections),
};
