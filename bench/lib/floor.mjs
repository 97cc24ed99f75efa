// The mingo floor: the hand-written routes over plain `mingo` on plain arrays of the data set's
// documents, what a naive embedded store does (every query a scan with mingo's `find`, no index,
// a full sort). The independent measurement compared the store with such a route.
import { find } from 'mingo';
import { employeesOf, handWrittenApp, joinEmployees } from './hand-written.mjs';

/** A compiled query's page of `docs`: mingo's cursor, sorted, skipped and limited. */
const page = (docs, { filter, projection, sort, skip, limit }) =>
  find(docs, filter, projection).sort(sort).skip(skip).limit(limit).all();

/** One array of documents as the hand-written routes' data layer. */
function arrayCollection(docs) {
  return {
    list: (query) => page(docs, query),
    count: (query) => find(docs, query.filter).all().length,
    get: (id) => find(docs, { _id: id }).next(),
    insert: (doc) => docs.push(doc),
  };
}

/** `$populate=employees` by hand over the arrays: the page, one `$in` query for its children, a join by id. */
function companiesWithEmployees(collections, query) {
  const companies = page(collections.companies, query);
  const ids = companies.map((company) => company._id);
  return joinEmployees(companies, find(collections.employees, employeesOf(ids)).all());
}

/** The floor's app over `collections` (the generated arrays themselves: `create` pushes onto them). */
export function floorApp(collections) {
  const app = handWrittenApp(collections, {
    collection: (name) => arrayCollection(collections[name]),
    companies: (query) => companiesWithEmployees(collections, query),
  });
  return { app, close: async () => {} };
}
