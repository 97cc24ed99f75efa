import type { StoreDb } from '@store/common';
import { expect, it } from 'vitest';
import {
  attachRelations,
  type PopulateDocument,
  type PopulateOptions,
  resolvePopulateOptions,
} from '../src/index';
import { countingDb } from './support/counting';
import { describeEngines, type EngineUnderTest, seed } from './support/engines';

const ids = (list: unknown) => (list as PopulateDocument[]).map((doc) => doc._id);

interface Ctx {
  team: string;
}

async function companiesWithEmployees(engine: EngineUnderTest) {
  const db = await engine.createDb();
  await seed(db, 'employees', [
    { _id: 'a', company_id: 1, name: 'Ann', age: 30, team: 'red' },
    { _id: 'b', company_id: 1, name: 'Bob', age: 40, team: 'blue' },
    { _id: 'c', company_id: 1, name: 'Cid', age: 20, team: 'red' },
    { _id: 'd', company_ids: [1, 2], name: 'Dee', age: 50, team: 'red' },
    { _id: 'e', company_id: 2, name: 'Eve', age: 25, team: 'blue' },
    { _id: 'f', company_id: 2, name: 'Fay', age: 35, team: 'red' },
  ]);
  return db;
}

async function employeesOf(db: StoreDb, population: PopulateOptions<Ctx>['population'], context?: Ctx) {
  const options = resolvePopulateOptions<Ctx>({ population });
  const page = [{ _id: 1 }, { _id: 2 }];
  const out = await attachRelations(
    page,
    { db, resource: 'companies', populate: ['employees'], context },
    options,
  );
  return out.map((company) => ids(company.employees));
}

describeEngines('relation constraints', (engine) => {
  it('ANDs a match filter into the relation', async () => {
    const db = await companiesWithEmployees(engine);
    const out = await employeesOf(db, { companies: { employees: { match: { team: 'blue' } } } });
    expect(out).toEqual([['b'], ['e']]);
  });

  it('calls a match function with the request context', async () => {
    const db = await companiesWithEmployees(engine);
    const match = (ctx: Ctx) => ({ team: ctx.team });
    const out = await employeesOf(db, { companies: { employees: { match } } }, { team: 'red' });
    expect(out).toEqual([
      ['a', 'c', 'd'],
      ['d', 'f'],
    ]);
  });

  it('sorts by the constraint, descending with "-"', async () => {
    const db = await companiesWithEmployees(engine);
    expect(await employeesOf(db, { companies: { employees: { sort: '-age' } } })).toEqual([
      ['d', 'b', 'a', 'c'],
      ['d', 'f', 'e'],
    ]);
  });

  it('sorts by the constraint with order', async () => {
    const db = await companiesWithEmployees(engine);
    expect(await employeesOf(db, { companies: { employees: { sort: 'name', order: 'desc' } } })).toEqual([
      ['d', 'c', 'b', 'a'],
      ['f', 'e', 'd'],
    ]);
  });

  it('limits PER PARENT, not per page', async () => {
    const db = await companiesWithEmployees(engine);
    expect(await employeesOf(db, { companies: { employees: { sort: 'age', limit: 2 } } })).toEqual([
      ['c', 'a'],
      ['e', 'f'],
    ]);
  });

  it('applies the constraint of the filled relation to $fill', async () => {
    const db = await engine.createDb();
    await seed(db, 'companies', [
      { _id: 1, size: 5 },
      { _id: 2, size: 9 },
      { _id: 3, size: 7 },
    ]);
    const options = resolvePopulateOptions({
      population: { employees: { companies: { sort: '-size', limit: 2 } } },
    });
    const out = await attachRelations(
      [{ _id: 'e', company_ids: [1, 2, 3] }],
      { db, resource: 'employees', fill: ['companies'] },
      options,
    );
    expect(ids(out[0]?.companies)).toEqual([2, 3]);
  });

  it('rejects a match function that gives no filter', async () => {
    const db = await companiesWithEmployees(engine);
    const match = () => null as unknown as PopulateDocument;
    await expect(employeesOf(db, { companies: { employees: { match } } })).rejects.toMatchObject({
      code: 'invalid_constraint',
    });
  });
});

describeEngines('per-parent cap', (engine) => {
  async function skewed() {
    const db = await engine.createDb();
    const many = Array.from({ length: 40 }, (_, i) => ({
      _id: `big${String(i).padStart(2, '0')}`,
      company_id: 1,
    }));
    await seed(db, 'employees', [
      ...many,
      { _id: 'only', company_id: 2 },
      { _id: 'x1', company_id: 3 },
      { _id: 'x2', company_id: 3 },
    ]);
    return db;
  }

  it('keeps at most perParentCap children per parent', async () => {
    const db = await skewed();
    const options = resolvePopulateOptions({ perParentCap: 5 });
    const out = await attachRelations(
      [{ _id: 1 }, { _id: 2 }, { _id: 3 }],
      { db, resource: 'companies', populate: ['employees'] },
      options,
    );
    expect(out.map((c) => ids(c.employees))).toEqual([
      ['big00', 'big01', 'big02', 'big03', 'big04'],
      ['only'],
      ['x1', 'x2'],
    ]);
  });

  it.each([
    [1, 3],
    [2, 2],
    [3, 2],
  ])(
    'never starves a small parent beside a huge one (batchRounds %i: %i queries)',
    async (batchRounds, queries) => {
      const db = await skewed();
      const counted = countingDb(db);
      const options = resolvePopulateOptions({ perParentCap: 3, batchRounds });
      const out = await attachRelations(
        [{ _id: 1 }, { _id: 2 }, { _id: 3 }],
        {
          db: counted.db,
          resource: 'companies',
          populate: ['employees'],
        },
        options,
      );
      expect(out.map((c) => ids(c.employees))).toEqual([['big00', 'big01', 'big02'], ['only'], ['x1', 'x2']]);
      expect(counted.calls).toHaveLength(queries);
      for (const call of counted.calls) expect(call.options?.limit).toBeLessThanOrEqual(3 * 3);
    },
  );

  it('bounds the batched query by cap x parents', async () => {
    const db = await skewed();
    const counted = countingDb(db);
    const options = resolvePopulateOptions({ perParentCap: 4 });
    await attachRelations(
      [{ _id: 1 }, { _id: 2 }],
      { db: counted.db, resource: 'companies', populate: ['employees'] },
      options,
    );
    expect(counted.calls[0]?.options).toEqual({ sort: { _id: 1 }, limit: 8 });
  });
});
