import { describe, expect, it } from 'vitest';
import type { EngineUnderTest } from '../support/engines';
import type { Start } from './fixtures';
import { ids } from './fixtures';
import { type Api, expectPassedOn, expectProblem, type Json } from './harness';

/** `{ _id: [length of <field>] }` of a list answer: how many related documents each got. */
const counts = (reply: { json: Json }, field: string) =>
  (reply.json as Json[]).map((doc) => [doc._id, doc[field].length]);

/** Companies 1-2 (name, country), employees of both, their tasks and projects. */
async function company(start: Start, config = {}): Promise<Api> {
  const api = await start(config);
  await api.seed('countries', [
    { _id: 'fr', name: 'France' },
    { _id: 'de', name: 'Germany' },
  ]);
  await api.seed('companies', [
    { _id: 1, name: 'Acme', country_id: 'fr' },
    { _id: 2, name: 'Bolt', country_ids: ['fr', 'de'] },
    { _id: 3, name: 'Void' },
  ]);
  await api.seed('employees', [
    { _id: 'e1', name: 'Cy', age: 40, active: true, team: 'red', company_id: 1 },
    { _id: 'e2', name: 'Ann', age: 30, active: true, team: 'blue', company_ids: [1, 2] },
    { _id: 'e3', name: 'Bob', age: 50, active: false, team: 'red', company_id: '1' },
    { _id: 'e4', name: 'Dee', age: 20, active: true, team: 'red', company_id: 2 },
  ]);
  await api.seed('tasks', [
    { _id: 't1', employee_id: 'e2' },
    { _id: 't2', employee_ids: ['e1', 'e2'] },
  ]);
  await api.seed('projects', [{ _id: 'p1', company_ids: [2] }]);
  return api;
}

/** Contract section 6 and spec 4.3's populate rule, over HTTP: `$populate`, `$fill`, nested routes. */
export function relationTests(start: Start, engine: EngineUnderTest): void {
  describe('$populate (spec 4.3, contract 6)', () => {
    // The spec's rule, exactly as stated.
    it('given companies 1 and 2, an employee with company_id 1 and one with company_ids [1,2], gives company 1 two employees and company 2 one, status 200', async () => {
      const api = await start();
      await api.seed('companies', [{ _id: 1 }, { _id: 2 }]);
      const [first, second] = await api.seed('employees', [{ company_id: 1 }, { company_ids: [1, 2] }]);
      const reply = await api.get('/companies?$populate=employees');
      expect(reply.status).toBe(200);
      expect(Array.isArray(reply.json)).toBe(true);
      expect(counts(reply, 'employees')).toEqual([
        [1, 2],
        [2, 1],
      ]);
      expect(reply.json[0].employees).toEqual([first, second].sort((a, b) => (a._id < b._id ? -1 : 1)));
      expect(reply.json[1].employees).toEqual([second]);
    });

    it('joins both reference fields and both id kinds, and gives a parent without children []', async () => {
      const api = await company(start);
      const reply = await api.get('/companies?$populate=employees');
      expect(reply.json.map((c: Json) => [c._id, ids({ json: c.employees })])).toEqual([
        [1, ['e1', 'e2', 'e3']],
        [2, ['e2', 'e4']],
        [3, []],
      ]);
    });

    it('populates a single document', async () => {
      const api = await company(start);
      const reply = await api.get('/companies/2?$populate=employees');
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ _id: 2, name: 'Bolt' });
      expect(ids({ json: reply.json.employees })).toEqual(['e2', 'e4']);
    });

    it('still answers 404 for a missing document', async () => {
      const api = await company(start);
      expectProblem(await api.get('/companies/9?$populate=employees'), 404, 'not_found');
    });

    it('adds the field when $select leaves _id out, and leaves _id out', async () => {
      const api = await company(start);
      const reply = await api.get('/companies?$select=name&$populate=projects');
      expect(reply.json).toEqual([
        { name: 'Acme', projects: [] },
        { name: 'Bolt', projects: [{ _id: 'p1', company_ids: [2] }] },
        { name: 'Void', projects: [] },
      ]);
    });

    it('keeps _id when $select lists it', async () => {
      const api = await company(start);
      const reply = await api.get('/companies/2?$select=_id&$populate=projects');
      expect(reply.json).toEqual({ _id: 2, projects: [{ _id: 'p1', company_ids: [2] }] });
    });

    it('pages the parents and populates only the page', async () => {
      const api = await company(start);
      const reply = await api.get('/companies?$sort=-name&$limit=1&$populate=employees');
      expect(counts(reply, 'employees')).toEqual([[3, 0]]);
    });

    it('answers $count for the whole filter, ignoring $populate', async () => {
      const api = await company(start);
      expect((await api.get('/companies?$count=1&$populate=employees')).json).toEqual({ count: 3 });
    });
  });

  describe('$fill', () => {
    it('adds an array of parents for both a <x>_id and a <x>_ids reference', async () => {
      const api = await company(start);
      const reply = await api.get('/companies?$fill=countries');
      expect(reply.status).toBe(200);
      expect(reply.json.map((c: Json) => [c._id, c.countries])).toEqual([
        [1, [{ _id: 'fr', name: 'France' }]],
        [
          2,
          [
            { _id: 'de', name: 'Germany' },
            { _id: 'fr', name: 'France' },
          ],
        ],
        [3, []],
      ]);
    });

    it('fills a single document', async () => {
      const api = await company(start);
      const reply = await api.get('/employees/e2?$fill=companies');
      expect(reply.json).toMatchObject({ _id: 'e2', company_ids: [1, 2] });
      expect(ids({ json: reply.json.companies })).toEqual([1, 2]);
    });

    it('adds the field when $select leaves the reference fields out, and leaves them out', async () => {
      const api = await company(start);
      const reply = await api.get('/employees?$select=name&$fill=companies&$sort=name');
      expect(reply.json.map((e: Json) => Object.keys(e))).toEqual(Array(4).fill(['name', 'companies']));
      expect(reply.json.map((e: Json) => [e.name, ids({ json: e.companies })])).toEqual([
        ['Ann', [1, 2]],
        ['Bob', [1]],
        ['Cy', [1]],
        ['Dee', [2]],
      ]);
    });
  });

  describe('GET /<res>/<id>/<children>', () => {
    it('pages the children: $sort=name&$limit=1', async () => {
      const api = await company(start);
      const reply = await api.get('/companies/1/employees?$sort=name&$limit=1');
      expect(reply.status).toBe(200);
      expect(ids(reply)).toEqual(['e2']);
      expect(ids(await api.get('/companies/1/employees?$sort=name&$limit=1&$page=1'))).toEqual(['e3']);
      expect(ids(await api.get('/companies/1/employees?$sort=name&$limit=1&$page=3'))).toEqual([]);
    });

    it.each([
      ['every child of the parent, both reference fields and id kinds', '', ['e1', 'e2', 'e3']],
      ['a field filter', 'active=true', ['e1', 'e2']],
      ['an operator', 'age:gte=40', ['e1', 'e3']],
      ['$query', `$query=${encodeURIComponent('{"team":"red"}')}`, ['e1', 'e3']],
      ['a descending sort', '$sort=-age', ['e3', 'e1', 'e2']],
      ['the other parent', '', ['e2', 'e4'], 2],
    ])('applies %s', async (_, query, expected, parent = 1) => {
      const api = await company(start);
      expect(ids(await api.get(`/companies/${parent}/employees?${query}`))).toEqual(expected);
    });

    it('answers $count for the children of the parent only', async () => {
      const api = await company(start);
      expect((await api.get('/companies/1/employees?$count=1')).json).toEqual({ count: 3 });
      expect((await api.get('/companies/1/employees?$count=1&active=false')).json).toEqual({ count: 1 });
    });

    it('applies $select, and $populate / $fill on the children', async () => {
      const api = await company(start);
      const reply = await api.get('/companies/2/employees?$select=name&$populate=tasks&$fill=companies');
      expect(reply.json).toEqual([
        {
          name: 'Ann',
          tasks: [
            { _id: 't1', employee_id: 'e2' },
            { _id: 't2', employee_ids: ['e1', 'e2'] },
          ],
          companies: [
            { _id: 1, name: 'Acme', country_id: 'fr' },
            { _id: 2, name: 'Bolt', country_ids: ['fr', 'de'] },
          ],
        },
        { name: 'Dee', tasks: [], companies: [{ _id: 2, name: 'Bolt', country_ids: ['fr', 'de'] }] },
      ]);
    });

    it('answers [] for a parent without children, or one that does not exist', async () => {
      const api = await company(start);
      expect((await api.get('/companies/3/employees')).json).toEqual([]);
      const missing = await api.get('/companies/404/employees');
      expect([missing.status, missing.json]).toEqual([200, []]);
    });

    it('answers HEAD like GET, without a body', async () => {
      const api = await company(start);
      const head = await api.request('HEAD', '/companies/1/employees');
      expect([head.status, head.text]).toEqual([200, '']);
    });

    it('answers 400 for an invalid query parameter', async () => {
      const api = await company(start);
      expectProblem(await api.get('/companies/1/employees?$limit=0'), 400, 'invalid_query');
      expectProblem(await api.get('/companies/1/employees?$nope=1'), 400, 'unknown_parameter');
    });

    it('searches the children with their own $search fields', async () => {
      const api = await start({ resources: { employees: { search: ['name'] } } });
      await api.seed('employees', [
        { _id: 'a', name: 'red fox', company_id: 1 },
        { _id: 'b', name: 'red ant', company_id: 2 },
        { _id: 'c', name: 'blue fox', company_id: 1 },
      ]);
      expect(ids(await api.get('/companies/1/employees?$search=red'))).toEqual(['a']);
      expectProblem(await api.get('/employees/a/companies?$search=red'), 400, 'invalid_query');
    });
  });

  describe('id kinds', () => {
    it('joins a POSTed (string) _id with string and ObjectId references, both ways', async () => {
      const api = await start();
      const [acme] = await api.seed('companies', [{ name: 'Acme' }]);
      await api.seed('employees', [
        { _id: 'string', company_id: acme._id },
        { _id: 'oid', company_ids: [{ $oid: acme._id }] },
        { _id: 'other', company_id: 'ffffffffffffffffffffffff' },
      ]);
      const populated = await api.get('/companies?$populate=employees');
      expect(ids({ json: populated.json[0].employees })).toEqual(['oid', 'string']);
      expect(ids(await api.get(`/companies/${acme._id}/employees`))).toEqual(['oid', 'string']);
      const filled = await api.get('/employees?$fill=companies');
      expect(filled.json.map((e: Json) => [e._id, e.companies.length])).toEqual([
        ['oid', 1],
        ['other', 0],
        ['string', 1],
      ]);
    });

    it('joins a number _id with a numeric string reference and a string _id with a number', async () => {
      const api = await start();
      await api.seed('companies', [{ _id: 7 }, { _id: '8' }]);
      await api.seed('employees', [
        { _id: 'a', company_id: '7' },
        { _id: 'b', company_ids: [8] },
        { _id: 'c', company_id: '07' },
      ]);
      expect(counts(await api.get('/companies?$populate=employees'), 'employees')).toEqual([
        [7, 1],
        ['8', 1],
      ]);
      expect(ids(await api.get('/companies/8/employees'))).toEqual(['b']);
    });

    it('joins a parent stored with an ObjectId _id', async () => {
      const api = await start();
      const hex = '64b7f0c2a1b2c3d4e5f60718';
      await api.seed('companies', [{ _id: { $oid: hex } }]);
      await api.seed('employees', [{ _id: 'a', company_id: hex }]);
      const reply = await api.get(`/companies/${hex}?$populate=employees`);
      expect(reply.json).toEqual({ _id: hex, employees: [{ _id: 'a', company_id: hex }] });
      expect(ids(await api.get(`/companies/${hex}/employees`))).toEqual(['a']);
    });
  });

  describe('naming', () => {
    it('uses the singular of an irregular plural: people -> person_id / person_ids', async () => {
      const api = await start();
      await api.seed('people', [{ _id: 1 }, { _id: 2 }]);
      await api.seed('pets', [
        { _id: 'cat', person_id: 1 },
        { _id: 'dog', person_ids: [1, 2] },
        { _id: 'eel', people_id: 1 },
      ]);
      expect(counts(await api.get('/people?$populate=pets'), 'pets')).toEqual([
        [1, 2],
        [2, 1],
      ]);
      expect(ids(await api.get('/people/2/pets'))).toEqual(['dog']);
      const filled = await api.get('/pets?$fill=people');
      expect(filled.json.map((p: Json) => [p._id, p.people.length])).toEqual([
        ['cat', 1],
        ['dog', 2],
        ['eel', 0],
      ]);
    });

    it('uses a per-resource singular override', async () => {
      const api = await start({ resources: { staff: { singular: 'staffer' } } });
      await api.seed('staff', [{ _id: 1 }]);
      await api.seed('shifts', [
        { _id: 'a', staffer_id: 1 },
        { _id: 'b', staff_id: 1 },
      ]);
      expect(ids({ json: (await api.get('/staff?$populate=shifts')).json[0].shifts })).toEqual(['a']);
      expect(ids(await api.get('/staff/1/shifts'))).toEqual(['a']);
      expect((await api.get('/shifts?$fill=staff')).json.map((s: Json) => s.staff.length)).toEqual([1, 0]);
    });
  });

  describe('constraints: resources.<parent>.population.<children>', () => {
    it('applies match, sort and limit per parent (not per page)', async () => {
      const population = { employees: { match: { active: true }, sort: '-age', limit: 1 } };
      const api = await company(start, { resources: { companies: { population } } });
      const reply = await api.get('/companies?$populate=employees');
      expect(reply.json.map((c: Json) => ids({ json: c.employees }))).toEqual([['e1'], ['e2'], []]);
    });

    it('takes order like $order', async () => {
      const population = { employees: { sort: ['team', 'age'], order: ['desc', 'asc'] } };
      const api = await company(start, { resources: { companies: { population } } });
      const reply = await api.get('/companies/1?$populate=employees');
      expect(ids({ json: reply.json.employees })).toEqual(['e1', 'e3', 'e2']);
    });

    it('calls a match function with the request context (here a $$flag)', async () => {
      const seen: unknown[] = [];
      const match = (ctx: Json) => {
        seen.push(ctx.resource.name);
        return { team: ctx.flags.team ?? 'none' };
      };
      const api = await company(start, {
        resources: { companies: { population: { employees: { match } } } },
      });
      const reply = await api.get('/companies?$populate=employees&$$team=red');
      expect(reply.json.map((c: Json) => ids({ json: c.employees }))).toEqual([['e1', 'e3'], ['e4'], []]);
      expect(seen).toEqual(['companies']);
      expect(ids(await api.get('/companies/1/employees?$$team=blue'))).toEqual(['e2']);
    });

    it('shapes $fill with population.<child>.<parents>', async () => {
      const population = { companies: { match: { name: 'Bolt' } } };
      const api = await company(start, { resources: { employees: { population } } });
      const reply = await api.get('/employees/e2?$fill=companies');
      expect(ids({ json: reply.json.companies })).toEqual([2]);
    });

    it('applies match to the nested route, but not sort or limit ($sort and paging rule there)', async () => {
      const population = { employees: { match: { active: true }, sort: '-age', limit: 1 } };
      const api = await company(start, { resources: { companies: { population } } });
      expect(ids(await api.get('/companies/1/employees'))).toEqual(['e1', 'e2']);
    });

    it('answers 500 invalid_constraint when a match function gives no filter', async () => {
      const population = { employees: { match: () => 'active' } };
      const api = await company(start, { resources: { companies: { population } } });
      expectProblem(await api.get('/companies?$populate=employees'), 500, 'invalid_constraint');
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
      expect(reply.json.map((c: Json) => ids({ json: c.employees }))).toEqual([['a', 'b'], ['z']]);
    });

    it('clamps a constraint limit to the cap', async () => {
      const population = { employees: { limit: 4, sort: '-_id' } };
      const api = await crowded({ populate: { perParentCap: 3 }, resources: { companies: { population } } });
      const reply = await api.get('/companies/1?$populate=employees');
      expect(ids({ json: reply.json.employees })).toEqual(['e', 'd', 'c']);
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
        reply.json.map((c: Json) => [c._id, c.employees.length, c.projects.length, c.countries.length]),
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
    ])('answers %s with %i %s', async (_, path, status, code) => {
      const api = await company(start);
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
      'passes /companies/1/%s on to the host app',
      async (name) => {
        const api = await company(start);
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
      expect(created.map((call) => [call.collection, call.args[0]])).toEqual([
        ['employees', { company_id: 1 }],
        ['employees', { company_ids: 1 }],
        ['projects', { company_id: 1 }],
        ['projects', { company_ids: 1 }],
        ['animals', { person_id: 1 }],
        ['animals', { person_ids: 1 }],
      ]);
      const again = await start({ db: counted.db, resources });
      await again.seed('pets', [{ _id: 'cat', person_id: 1 }]);
      expect(counted.calls.filter((call) => call.method === 'createIndex')).toHaveLength(12);
    });

    it('keeps an index made by hand on the same key, with a warning', async () => {
      const db = await engine.createDb();
      await db.collection('employees').createIndex({ company_id: 1 }, { name: 'by_company' });
      const warnings: string[] = [];
      const logger = { error: () => undefined, warn: (message: string) => warnings.push(message) };
      const population = { employees: {} };
      const api = await start({ db, logger, resources: { companies: { population } } });
      expect((await api.get('/companies')).status).toBe(200);
      expect(warnings).toEqual([expect.stringContaining('employees.company_id')]);
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
      expect(reply.json.every((c: Json) => c.employees.length === 10 && c.countries.length === 1)).toBe(true);
      expect(counted.calls.map((call) => call.collection).sort()).toEqual([
        'companies',
        'countries',
        'employees',
      ]);
    });
  });
}

/** One collection method call seen by {@link countingDb}. */
interface Call {
  collection: string;
  method: string;
  args: unknown[];
}

/** Wraps a database so a test sees every collection method the store calls. */
function countingDb<D extends { collection(name: string): object }>(db: D): { db: D; calls: Call[] } {
  const calls: Call[] = [];
  const collection = (name: string) =>
    new Proxy(db.collection(name), {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        return (...args: unknown[]) => {
          calls.push({ collection: name, method: property, args });
          return value.apply(target, args);
        };
      },
    });
  const wrapped = new Proxy(db, {
    get(target, property) {
      if (property === 'collection') return collection;
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: wrapped, calls };
}
