// Feathers v5 over its in-memory service: `@feathersjs/express` (Express 4) with its JSON body
// parser, REST transport and error handler, one `@feathersjs/memory` service per collection,
// keyed by the data set's `_id`, with the pagination the Feathers generator configures
// (`{ default: 10, max: 50 }`: a list answers `{ total, limit, skip, data }`). Its query syntax is
// `f[$gt]=v`, `f[$in][]=v`, `$sort[f]=-1`, `$limit`, `$skip`, `$select`, `$or`; the memory
// service has no population, and matches a substring only by `$regex` once an app lists it in
// the service's `operators`, as Feathers' documentation shows (`['$regex']`): listed here, for
// the `contains` case (`name[$regex]=999`).

import express, { errorHandler, json, rest } from '@feathersjs/express';
import { feathers } from '@feathersjs/feathers';
import { MemoryService } from '@feathersjs/memory';

/** The pagination `feathers generate` writes into a new app's configuration. */
const PAGINATE = { default: 10, max: 50 };

/** The operators allowed besides Feathers' own (`$in`, `$nin`, `$lt`, ..., `$or`). */
const OPERATORS = ['$regex'];

/** The numeric fields of the data sets, which a query string gives as strings. */
const NUMBERS = ['n', 'price', 'salary'];

const toNumbers = (value) => {
  if (Array.isArray(value)) return value.map(Number);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([operator, operand]) => [operator, toNumbers(operand)]),
    );
  }
  return Number(value);
};

/**
 * A `find` hook reading the numeric fields' operands as numbers: what a Feathers query schema
 * coerces (the memory service compares `'500'` with `500` as unequal types, and matches nothing),
 * without the cost of a validator.
 */
async function numericQuery(context) {
  const query = context.params.query ?? {};
  const converted = Object.fromEntries(
    NUMBERS.filter((field) => query[field] !== undefined).map((field) => [field, toNumbers(query[field])]),
  );
  context.params.query = { ...query, ...converted };
}

/**
 * Feathers over `collections`, one memory service each (`/<collection>`), listening on 127.0.0.1;
 * resolves `{ port, close }` (Feathers' own `listen`, which also runs the services' `setup`).
 */
export async function feathersApp(collections) {
  const app = express(feathers());
  app.use(json());
  app.configure(rest());
  for (const [name, docs] of Object.entries(collections)) {
    const store = Object.fromEntries(docs.map((doc) => [doc._id, doc]));
    app.use(name, new MemoryService({ id: '_id', paginate: PAGINATE, operators: OPERATORS, store }));
    app.service(name).hooks({ before: { find: [numericQuery] } });
  }
  app.use(errorHandler({ logger: false }));
  const server = await app.listen(0, '127.0.0.1');
  if (!server.listening)
    await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return {
    port: server.address().port,
    close: async () => {
      server.closeAllConnections?.();
      await app.teardown();
    },
  };
}
