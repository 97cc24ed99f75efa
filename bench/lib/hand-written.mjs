// The hand-written contenders' Express 5 app: the same routes over two data layers, the
// same-engine baseline (`@store/embedded` or MongoDB collections) and the mingo floor (plain
// arrays). Each route runs one query string of `QUERIES`, compiled once at start-up with
// `@store/query`, as the store compiles the same string per request.
import { newId } from '@store/common';
import { compileQuery } from '@store/query';
import express from 'express';
import { QUERIES } from './cases.mjs';
import { INDEXED } from './data.mjs';
import { readJson, sendJson } from './json-answer.mjs';

/** The filter of `$populate=employees`'s children: the employees of the companies `ids`. */
export const employeesOf = (ids) => ({ $or: [{ company_id: { $in: ids } }, { company_ids: { $in: ids } }] });

/** The companies, each with its employees (joined by id in memory). */
export function joinEmployees(companies, employees) {
  const byCompany = new Map(companies.map((company) => [company._id, []]));
  for (const employee of employees) {
    for (const id of [employee.company_id, ...(employee.company_ids ?? [])])
      byCompany.get(id)?.push(employee);
  }
  return companies.map((company) => ({ ...company, employees: byCompany.get(company._id) }));
}

/** The item collections a data set may hold: each gets the same routes. */
const ITEM_COLLECTIONS = ['items', INDEXED];

/**
 * An Express app over `layer`: `collection(name)` answers `{ list(query), count(query),
 * get(id), insert(doc) }` and `companies(page)` the populate page (each may return a promise).
 * Only the collections present in `collections` get routes.
 */
export function handWrittenApp(collections, layer) {
  const list = compileQuery(QUERIES.list);
  const count = compileQuery(QUERIES.count);
  const range = compileQuery(QUERIES.range);
  const page = compileQuery(QUERIES.populate);
  const app = express();
  for (const name of ITEM_COLLECTIONS.filter((each) => collections[each] !== undefined)) {
    const items = layer.collection(name);
    app.get(`/${name}`, async (_req, res) => {
      sendJson(res, 200, await items.list(list));
    });
    app.get(`/${name}/count`, async (_req, res) => {
      sendJson(res, 200, { count: await items.count(count) });
    });
    app.get(`/${name}/range-sort`, async (_req, res) => {
      sendJson(res, 200, await items.list(range));
    });
    app.get(`/${name}/:id`, async (req, res) => {
      const doc = await items.get(req.params.id);
      sendJson(res, doc ? 200 : 404, doc ?? { status: 404 });
    });
    app.post(`/${name}`, async (req, res) => {
      const doc = { _id: newId(), ...(await readJson(req)) };
      await items.insert(doc);
      sendJson(res, 201, doc, { location: `/${name}/${doc._id}` });
    });
  }
  if (collections.companies !== undefined) {
    app.get('/companies', async (_req, res) => {
      sendJson(res, 200, await layer.companies(page));
    });
  }
  return app;
}
