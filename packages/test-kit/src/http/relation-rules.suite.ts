import type { HookContext } from '@store/core';
import { describe, expect, it } from 'vitest';
import type { EngineUnderTest } from '../engines';
import { withAuth } from './auth-fixtures';
import { ids, type Start } from './fixtures';
import { asArray, expectPassedOn, expectProblem, field } from './harness';
import { company, countingDb, counts } from './relation-fixtures';

/**
 * Relations, the server side: constraints, caps, several relations, names that are
 * not resources, reference-field indexes, and the number of database calls per request.
 */
export function relationRuleTests(start: Start, engine: EngineUnderTest): void {
  describe('constraints: resources.<parent>.population.<children>', () => {
    it('applies match, sort and limit per parent (not per page)', async () => {
      const population = { employees: { match: { active: true }, sort: '-age', limit: 1 } };
      const api = await company(start, { resources: { companies: { population } } });
      const reply = await api.get('/companies?$populate=employees');
      expect(asArray(reply.json).map((c) => ids({ json: field(c, 'employees') }))).toEqual([
        ['e1'],
        ['e2'],
        [],
      ]);
    });

    it('takes order like $order', async () => {
      const population = { employees: { sort: ['team', 'age'], order: ['desc', 'asc'] } };
      const api = await company(start, { resources: { companies: { population } } });
      const reply = await api.get('/companies/1?$populate=employees');
      expect(ids({ json: field(reply.json, 'employees') })).toEqual(['e1', 'e3', 'e2']);
    });

    it('calls a match function with the request context (here a $$flag)', async () => {
      const seen: unknown[] = [];
      const match = (ctx: HookContext) => {
        seen.push(ctx.resource.name);
        return { team: ctx.flags.team ?? 'none' };
      };
      const api = await company(start, {
        resources: { companies: { population: { employees: { match } } } },
      });
      const reply = await api.get('/companies?$populate=employees&$$team=red');
      expect(asArray(reply.json).map((c) => ids({ json: field(c, 'employees') }))).toEqual([
        ['e1', 'e3'],
        ['e4'],
        [],
      ]);
      expect(seen).toEqual(['companies']);
      expect(ids(await api.get('/companies/1/employees?$$team=blue'))).toEqual(['e2']);
    });

    it('shapes $fill with population.<child>.<parents>', async () => {
      const population = { companies: { match: { name: 'Bolt' } } };
      const api = await company(start, { resources: { employees: { population } } });
      const reply = await api.get('/employees/e2?$fill=companies');
      expect(ids({ json: field(reply.json, 'companies') })).toEqual([2]);
    });

    it('applies match to the nested route, but not sort or limit ($sort and paging rule there)', async () => {
      const population = { employees: { match: { active: true }, sort: '-age', limit: 1 } };
      const api = await company(start, { resources: { companies: { population } } });
      expect(ids(await api.get('/companies/1/employees'))).toEqual(['e1', 'e2']);
    });

    it('answers 500 invalid_constraint when a match function gives no filter, populated or nested', async () => {
      const population = { employees: { match: () => 'active' } };
      const api = await company(start, { resources: { companies: { population } } });
      expectProblem(await api.get('/companies?$populate=employees'), 500, 'invalid_constraint');
      expectProblem(await api.get('/companies/1/employees'), 500, 'invalid_constraint');
    });
  });

  describe('caps', () => {
    async function crowded(config = {}) {
      const api = await start(config);
      await api.seed('companies', [{ _id: 1 }, { _id: 2 }]);
      await api.seed(
        'employees',
        ['a', 'b', 'c', 'd', 'e'].map((_id) => ({ _id, company_id: 1 })).concat({ _id: 'z', company_id: 2 }),
      );
      return api;
    }

    it('adds at most perParentCap children per parent, in _id order, without crowding out the others', async () => {
      const api = await crowded({ populate: { perParentCap: 2 } });
      const reply = await api.get('/companies?$populate=employees');
      expect(asArray(reply.json).map((c) => ids({ json: field(c, 'employees') }))).toEqual([
        ['a', 'b'],
        ['z'],
      ]);
    });

    it('clamps a constraint limit to the cap', async () => {
      const population = { employees: { limit: 4, sort: '-_id' } };
      const api = await crowded({ populate: { perParentCap: 3 }, resources: { companies: { population } } });
      const reply = await api.get('/companies/1?$populate=employees');
      expect(ids({ json: field(reply.json, 'employees') })).toEqual(['e', 'd', 'c']);
    });

    it('leaves the rest reachable through the nested route', async () => {
      const api = await crowded({ populate: { perParentCap: 2 } });
      expect(ids(await api.get('/companies/1/employees'))).toEqual(['a', 'b', 'c', 'd', 'e']);
    });
  });

  describe('several relations at once', () => {
    it.each([
      ['repeated parameters', '$populate=employees&$populate=projects&$fill=countries'],
      ['a comma-separated list', '$populate=employees,projects&$fill=countries'],
    ])('adds every relation given as %s', async (_, query) => {
      const api = await company(start);
      const reply = await api.get(`/companies?${query}`);
      expect(reply.status).toBe(200);
      expect(
        asArray(reply.json).map((c) => [
          field(c, '_id'),
          asArray(field(c, 'employees')).length,
          asArray(field(c, 'projects')).length,
          asArray(field(c, 'countries')).length,
        ]),
      ).toEqual([
        [1, 3, 0, 1],
        [2, 2, 1, 2],
        [3, 0, 0, 0],
      ]);
    });
  });

  describe('names that are not resources', () => {
    it.each([
      ['an internal collection in $populate', '/companies?$populate=svc-sessions', 400, 'invalid_relation'],
      ['an internal collection in $fill', '/employees?$fill=svc-magic-links', 400, 'invalid_relation'],
      ['one on a single document', '/companies/1?$populate=svc-rate-limits', 400, 'invalid_relation'],
      ['one on a nested route', '/companies/1/employees?$fill=svc-magic-codes', 400, 'invalid_relation'],
      ['one on an empty page', '/nothing?$populate=svc-sessions', 400, 'invalid_relation'],
      ['one with $count', '/companies?$count=1&$populate=svc-sessions', 400, 'invalid_relation'],
      ['an invalid name', '/companies?$populate=-x', 400, 'invalid_query'],
      ['a name in both lists', '/companies?$populate=countries&$fill=countries', 400, 'relation_conflict'],
      [
        'more than maxRelations names',
        `/companies?$populate=${Array.from({ length: 11 }, (_, i) => `r${i}`).join(',')}`,
        400,
        'too_many_relations',
      ],
    ])('answers %s with %i %s (sign-in on)', async (_, path, status, code) => {
      const api = await company(start, withAuth());
      expectProblem(await api.get(path), status, code);
    });

    it('takes maxRelations from the populate option', async () => {
      const api = await company(start, { populate: { maxRelations: 1 } });
      expect((await api.get('/companies?$populate=employees')).status).toBe(200);
      expectProblem(
        await api.get('/companies?$populate=employees&$fill=countries'),
        400,
        'too_many_relations',
      );
    });

    it('reaches only declared resources under restrict: true (400 as a parameter, passed on as a path)', async () => {
      const api = await start({ restrict: true, resources: { companies: {}, employees: {} } });
      await api.seed('companies', [{ _id: 1 }]);
      await api.seed('employees', [{ _id: 'e', company_id: 1 }]);
      expect(counts(await api.get('/companies?$populate=employees'), 'employees')).toEqual([[1, 1]]);
      expect(ids(await api.get('/companies/1/employees'))).toEqual(['e']);
      expectProblem(await api.get('/companies?$populate=projects'), 400, 'invalid_relation');
      expectProblem(await api.get('/employees?$fill=countries'), 400, 'invalid_relation');
      expectPassedOn(await api.get('/companies/1/projects'));
    });

    it.each(['svc-sessions', 'svc-magic-links', '-x'])(
      'passes /companies/1/%s on to the host app (sign-in on)',
      async (name) => {
        const api = await company(start, withAuth());
        expectPassedOn(await api.get(`/companies/1/${name}`));
      },
    );
  });

  describe('indexes on reference fields', () => {
    it('ensures <singular>_id and <singular>_ids on the children of each declared relation, idempotently', async () => {
      const db = await engine.createDb();
      const counted = countingDb(db);
      const resources = {
        companies: { population: { employees: { limit: 5 }, projects: {} } },
        people: { population: { pets: {} } },
        pets: { collection: 'animals' },
      };
      await start({ db: counted.db, resources });
      const created = counted.calls.filter((call) => call.method === 'createIndex');
      // Collections are reconciled in parallel, each one's indexes in order.
      const byCollection = (name: string) =>
        created.filter((call) => call.collection === name).map((call) => [call.args[0], call.args[1]]);
      expect(created).toHaveLength(6);
      expect(byCollection('employees')).toEqual([
        [{ company_id: 1 }, { name: 'store_company_id_1' }],
        [{ company_ids: 1 }, { name: 'store_company_ids_1' }],
      ]);
      expect(byCollection('projects')).toEqual(byCollection('employees'));
      expect(byCollection('animals')).toEqual([
        [{ person_id: 1 }, { name: 'store_person_id_1' }],
        [{ person_ids: 1 }, { name: 'store_person_ids_1' }],
      ]);
      const again = await start({ db: counted.db, resources });
      await again.seed('pets', [{ _id: 'cat', person_id: 1 }]);
      // A second start finds them in place and creates nothing.
      expect(counted.calls.filter((call) => call.method === 'createIndex')).toHaveLength(6);
    });

    it('keeps an index made by hand on the same key, with a warning', async () => {
      const db = await engine.createDb();
      await db.collection('employees').createIndex({ company_id: 1 }, { name: 'by_company' });
      const warnings: string[] = [];
      const logger = { error: () => undefined, warn: (message: string) => warnings.push(message) };
      const population = { employees: {} };
      const api = await start({ db, logger, resources: { companies: { population } } });
      expect((await api.get('/companies')).status).toBe(200);
      expect(warnings).toEqual([expect.stringContaining('kept the index "by_company" on employees')]);
      const indexes = await db.collection('employees').listIndexes().toArray();
      expect(indexes.map((index) => index.name)).not.toContain('store_company_id_1');
    });
  });

  describe('several levels: $populate=a.b, $fill=a.b', () => {
    it('attaches the children of each child', async () => {
      const api = await company(start);
      const reply = await api.get('/companies/1?$populate=employees.tasks&$select=name');
      const employees = asArray(field(reply.json, 'employees'));
      expect(employees.map((e) => [field(e, '_id'), ids({ json: field(e, 'tasks') })])).toEqual([
        ['e1', ['t2']],
        ['e2', ['t1', 't2']],
        ['e3', []],
      ]);
    });

    it('attaches the parents of each parent upward', async () => {
      const api = await company(start);
      const reply = await api.get('/employees/e1?$fill=companies.countries');
      const [acme] = asArray(field(reply.json, 'companies'));
      expect(ids({ json: field(acme, 'countries') })).toEqual(['fr']);
    });

    it("applies the deeper resource's hidden fields and its parent's population constraint", async () => {
      const api = await company(start, {
        resources: {
          tasks: { hidden: ['employee_ids'] },
          employees: { population: { tasks: { match: { employee_id: { $exists: true } } } } },
        },
      });
      const reply = await api.get('/companies/1?$populate=employees.tasks');
      const employees = asArray(field(reply.json, 'employees'));
      expect(employees.map((e) => field(e, 'tasks'))).toEqual([[], [{ _id: 't1', employee_id: 'e2' }], []]);
    });

    it('refuses a fourth level with invalid_relation', async () => {
      const api = await company(start);
      expectProblem(
        await api.get('/companies?$populate=employees.tasks.notes.items'),
        400,
        'invalid_relation',
      );
    });
  });

  describe('database calls', () => {
    it.each([
      ['a plain list', '/companies', ['companies.find']],
      ['$populate on a list', '/companies?$populate=employees', ['companies.find', 'employees.find']],
      [
        'three relations on a list',
        '/companies?$populate=employees&$populate=projects&$fill=countries',
        ['companies.find', 'countries.find', 'employees.find', 'projects.find'],
      ],
      [
        'two relations on one document',
        '/employees/e2?$fill=companies&$populate=tasks',
        ['companies.find', 'employees.findOne', 'tasks.find'],
      ],
      [
        'a nested route with a relation',
        '/companies/1/employees?$populate=tasks',
        ['employees.find', 'tasks.find'],
      ],
      ['a nested $count', '/companies/1/employees?$count=1', ['employees.countDocuments']],
      [
        'three levels of $populate',
        '/countries?$populate=companies.employees.tasks',
        ['companies.find', 'countries.find', 'employees.find', 'tasks.find'],
      ],
      [
        'two levels of $fill',
        '/tasks?$fill=employees.companies',
        ['companies.find', 'employees.find', 'tasks.find'],
      ],
    ])('answers %s with 1 + one query per related resource', async (_, path, expected) => {
      const counted = countingDb(await engine.createDb());
      const api = await company((config) => start({ ...config, db: counted.db }));
      counted.calls.length = 0;
      expect((await api.get(path)).status).toBe(200);
      expect(counted.calls.map((call) => `${call.collection}.${call.method}`).sort()).toEqual(expected);
    });

    it('asks once per related resource for a page of 50 parents with 10 children each', async () => {
      const db = await engine.createDb();
      const counted = countingDb(db);
      const api = await start({ db: counted.db });
      const parents = Array.from({ length: 50 }, (_, i) => ({ _id: i + 1, country_id: i % 2 ? 'fr' : 'de' }));
      await api.seed('companies', parents);
      await api.seed('countries', [{ _id: 'fr' }, { _id: 'de' }]);
      await api.seed(
        'employees',
        parents.flatMap((p) =>
          Array.from({ length: 10 }, (_, j) => ({ _id: `${p._id}-${j}`, company_id: p._id })),
        ),
      );
      counted.calls.length = 0;
      const reply = await api.get('/companies?$limit=50&$populate=employees&$fill=countries');
      expect(
        asArray(reply.json).every(
          (c) => asArray(field(c, 'employees')).length === 10 && asArray(field(c, 'countries')).length === 1,
        ),
      ).toBe(true);
      expect(counted.calls.map((call) => call.collection).sort()).toEqual([
        'companies',
        'countries',
        'employees',
      ]);
    });
  });
}
