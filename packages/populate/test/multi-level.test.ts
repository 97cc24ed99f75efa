/**
 * Multi-level relations: `$populate=employees.tasks` attaches each
 * company's employees and each employee's tasks; `$fill=companies.countries` goes upward the
 * same way. At most 3 levels, one query per resource per level, and constraints, scopes and
 * the answer bound apply at every level.
 */
import type { StoreDb } from '@store/common';
import { expect, it } from 'vitest';
import { attachRelations, PopulateError, planRelations, resolvePopulateOptions } from '../src/index';
import { countingDb } from './support/counting';
import { describeEngines, seed } from './support/engines';

describeEngines('relations over several levels', (engine) => {
  async function company(): Promise<StoreDb> {
    const db = await engine.createDb();
    await seed(db, 'countries', [{ _id: 'fr', name: 'France' }]);
    await seed(db, 'companies', [
      { _id: 1, name: 'Acme', country_id: 'fr' },
      { _id: 2, name: 'Empty', country_id: 'fr' },
    ]);
    await seed(db, 'employees', [
      { _id: 10, name: 'Ada', company_id: 1 },
      { _id: 11, name: 'Bob', company_id: 1 },
    ]);
    await seed(db, 'tasks', [
      { _id: 100, title: 'write', employee_id: 10 },
      { _id: 101, title: 'test', employee_id: 10 },
      { _id: 102, title: 'ship', employee_id: 11 },
    ]);
    return db;
  }

  it('attaches children of children with one query per resource per level', async () => {
    const counted = countingDb(await company());
    const companies = [
      { _id: 1, name: 'Acme' },
      { _id: 2, name: 'Empty' },
    ];
    const out = await attachRelations(companies, {
      db: counted.db,
      resource: 'companies',
      populate: ['employees.tasks'],
    });
    expect(out).toEqual([
      {
        _id: 1,
        name: 'Acme',
        employees: [
          {
            _id: 10,
            name: 'Ada',
            company_id: 1,
            tasks: [
              { _id: 100, title: 'write', employee_id: 10 },
              { _id: 101, title: 'test', employee_id: 10 },
            ],
          },
          { _id: 11, name: 'Bob', company_id: 1, tasks: [{ _id: 102, title: 'ship', employee_id: 11 }] },
        ],
      },
      { _id: 2, name: 'Empty', employees: [] },
    ]);
    expect(counted.calls.map((call) => call.collection)).toEqual(['employees', 'tasks']);
  });

  it('attaches parents of parents upward with $fill', async () => {
    const counted = countingDb(await company());
    const employees = [
      { _id: 10, company_id: 1 },
      { _id: 11, company_id: 1 },
    ];
    const out = await attachRelations(employees, {
      db: counted.db,
      resource: 'employees',
      fill: ['companies.countries'],
    });
    const acme = { _id: 1, name: 'Acme', country_id: 'fr', countries: [{ _id: 'fr', name: 'France' }] };
    expect(out).toEqual([
      { _id: 10, company_id: 1, companies: [acme] },
      { _id: 11, company_id: 1, companies: [acme] },
    ]);
    expect(counted.calls.map((call) => call.collection)).toEqual(['companies', 'countries']);
  });

  it('applies each level its own scope (an access filter) and constraint', async () => {
    const db = await company();
    const options = resolvePopulateOptions({
      population: { employees: { tasks: { sort: 'title', limit: 1 } } },
    });
    const out = await attachRelations(
      [{ _id: 1 }],
      {
        db,
        resource: 'companies',
        populate: ['employees.tasks'],
        scope: (name) => (name === 'employees' ? { filter: { name: 'Ada' }, hidden: ['company_id'] } : {}),
      },
      options,
    );
    expect(out).toEqual([
      {
        _id: 1,
        employees: [{ _id: 10, name: 'Ada', tasks: [{ _id: 101, title: 'test', employee_id: 10 }] }],
      },
    ]);
  });

  it('counts related documents at every level against maxDocuments', async () => {
    const db = await company();
    const request = { db, resource: 'companies', populate: ['employees.tasks'] };
    // 2 employees + 3 tasks under them: 5 in all.
    await expect(
      attachRelations([{ _id: 1 }], request, resolvePopulateOptions({ maxDocuments: 4 })),
    ).rejects.toMatchObject({ code: 'too_many_documents', data: { count: 5, maxDocuments: 4 } });
    await expect(
      attachRelations([{ _id: 1 }], request, resolvePopulateOptions({ maxDocuments: 5 })),
    ).resolves.toHaveLength(1);
  });

  it('merges paths that share a first level and attaches both further relations', async () => {
    const db = await company();
    await seed(db, 'badges', [{ _id: 'b', employee_id: 11 }]);
    const [acme] = await attachRelations([{ _id: 1 }], {
      db,
      resource: 'companies',
      populate: ['employees', 'employees.tasks', 'employees.badges'],
    });
    const employees = acme?.employees as Array<Record<string, unknown>>;
    expect(employees.map((each) => [each.name, (each.tasks as unknown[]).length, each.badges])).toEqual([
      ['Ada', 2, []],
      ['Bob', 1, [{ _id: 'b', employee_id: 11 }]],
    ]);
  });
});

it('plans at most 3 levels and counts every level against maxRelations', () => {
  expect(planRelations(['a.b.c'], [], 10)).toEqual([
    {
      name: 'a',
      kind: 'populate',
      relations: [{ name: 'b', kind: 'populate', relations: [expect.anything()] }],
    },
  ]);
  const tooDeep = () => planRelations(['a.b.c.d'], [], 10);
  expect(tooDeep).toThrow(PopulateError);
  expect(tooDeep).toThrow('at most 3 levels');
  expect(() => planRelations(['a.b', 'a..b'], [], 10)).toThrow(/must name resources/);
  expect(() => planRelations(['a.b.c'], ['d'], 3)).toThrow(/at most 3 relations/);
});
