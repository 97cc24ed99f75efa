/**
 * By-hand benchmark (never a timed test): a page of 100 parents, each with 10 children,
 * listed then populated, against two plain list queries (the 100 parents, then 1000 children
 * unfiltered, or selected by a hand-written `company_id: { $in }`), on core's embedded engine
 * (imported by relative path; populate's code never imports core), without and with the
 * reference-field indexes the store ensures for a declared relation.
 * Run: pnpm vitest bench --project populate --run
 */

import { createEmbeddedDb } from '@store/embedded';
import { bench, describe } from 'vitest';
import { attachRelations, type PopulateDb } from '../src/index';

const PARENTS = 1000;
const db = createEmbeddedDb();
/** The same data with the reference-field indexes the store ensures for a declared relation. */
const indexed = createEmbeddedDb();
await indexed.collection('employees').createIndex({ company_id: 1 });
await indexed.collection('employees').createIndex({ company_ids: 1 });
for (let i = 1; i <= PARENTS; i++) {
  for (const engine of [db, indexed]) {
    await engine.collection('companies').insertOne({ _id: i, name: `company ${i}` });
    for (let j = 0; j < 10; j++) {
      await engine
        .collection('employees')
        .insertOne({ _id: `${i}-${j}`, company_id: i, name: `employee ${j}` });
    }
  }
}
const companies = db.collection('companies');
const employees = db.collection('employees');

describe('page of 100 companies x 10 employees (1000 companies, 10000 employees stored)', () => {
  bench('two plain list queries (100 companies, 1000 employees)', async () => {
    await companies.find({}, { sort: { _id: 1 }, limit: 100 }).toArray();
    await employees.find({}, { sort: { _id: 1 }, limit: 1000 }).toArray();
  });

  bench('two hand-written queries (100 companies, employees with company_id $in page)', async () => {
    const page = await companies.find({}, { sort: { _id: 1 }, limit: 100 }).toArray();
    await employees.find({ company_id: { $in: page.map((c) => c._id) } }, { sort: { _id: 1 } }).toArray();
  });

  bench('list 100 companies + $populate=employees', async () => {
    const page = await companies.find({}, { sort: { _id: 1 }, limit: 100 }).toArray();
    await attachRelations(page, { db, resource: 'companies', populate: ['employees'] });
  });

  bench('the same, company_id and company_ids indexed (as for a declared relation)', async () => {
    const page = await indexed
      .collection('companies')
      .find({}, { sort: { _id: 1 }, limit: 100 })
      .toArray();
    await attachRelations(page, { db: indexed, resource: 'companies', populate: ['employees'] });
  });
});

describe('the in-memory join alone (a database that answers at once)', () => {
  const page = Array.from({ length: 100 }, (_, i) => ({ _id: i + 1 }));
  const answer = page.flatMap((p) =>
    Array.from({ length: 10 }, (_, j) => ({ _id: `${p._id}-${j}`, company_id: p._id })),
  );
  const instant: PopulateDb = { collection: () => ({ find: () => ({ toArray: async () => answer }) }) };
  bench('join 1000 employees onto 100 companies', async () => {
    await attachRelations(page, { db: instant, resource: 'companies', populate: ['employees'] });
  });
});
