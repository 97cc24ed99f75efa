import { expect, it } from 'vitest';
import { attachRelations, type PopulateDocument } from '../src/index';
import { countingDb } from './support/counting';
import { describeEngines, seed } from './support/engines';

describeEngines('batching', (engine) => {
  async function hundredCompanies() {
    const db = await engine.createDb();
    const companies = Array.from({ length: 100 }, (_, i) => ({
      _id: i + 1,
      country_id: i % 2 ? 'fr' : 'de',
    }));
    await seed(db, 'companies', companies);
    await seed(db, 'countries', [{ _id: 'fr' }, { _id: 'de' }]);
    await seed(
      db,
      'employees',
      companies.flatMap((c) =>
        Array.from({ length: 10 }, (_, j) => ({ _id: `${c._id}-${j}`, company_id: c._id })),
      ),
    );
    await seed(db, 'projects', [{ _id: 'p', company_ids: companies.map((c) => String(c._id)) }]);
    return { db, companies };
  }

  it('asks the database once per populated or filled resource for a page of 100', async () => {
    const { db, companies } = await hundredCompanies();
    const counted = countingDb(db);
    const out = await attachRelations(companies, {
      db: counted.db,
      resource: 'companies',
      populate: ['employees', 'projects'],
      fill: ['countries'],
    });
    expect(counted.calls.map((call) => call.collection).sort()).toEqual([
      'countries',
      'employees',
      'projects',
    ]);
    expect(out.every((c) => (c.employees as PopulateDocument[]).length === 10)).toBe(true);
    expect(out.every((c) => (c.projects as PopulateDocument[]).length === 1)).toBe(true);
    expect(out.every((c) => (c.countries as PopulateDocument[])[0]?._id === c.country_id)).toBe(true);
  });

  it('selects with $in over the page ids, covering _id and _ids forms', async () => {
    const { db } = await hundredCompanies();
    const counted = countingDb(db);
    await attachRelations([{ _id: 1 }, { _id: 2 }], {
      db: counted.db,
      resource: 'companies',
      populate: ['employees'],
    });
    expect(counted.calls).toEqual([
      {
        collection: 'employees',
        filter: {
          $or: [{ company_id: { $in: [1, '1', 2, '2'] } }, { company_ids: { $in: [1, '1', 2, '2'] } }],
        },
        options: { sort: { _id: 1 }, limit: 2000 },
      },
    ]);
  });

  it('asks nothing for an empty page or no relations', async () => {
    const { db } = await hundredCompanies();
    const counted = countingDb(db);
    expect(
      await attachRelations([], { db: counted.db, resource: 'companies', populate: ['employees'] }),
    ).toEqual([]);
    expect(await attachRelations([{ _id: 1 }], { db: counted.db, resource: 'companies' })).toEqual([
      { _id: 1 },
    ]);
    expect(counted.calls).toEqual([]);
  });
});
