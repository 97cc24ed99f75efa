import { describe, expect, it } from 'vitest';
import { ids, type Start } from './fixtures';
import { asArray, asObject, asString, expectProblem, field } from './harness';
import { company, counts } from './relation-fixtures';

/** Relations over HTTP: `$populate`, `$fill`, nested routes, ids, naming. */
export function relationTests(start: Start): void {
  describe('$populate', () => {
    // The example of docs/relationships.md#examples.
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
      const byId = [first, second].sort((a, b) =>
        asString(field(a, '_id')) < asString(field(b, '_id')) ? -1 : 1,
      );
      expect(field(asArray(reply.json)[0], 'employees')).toEqual(byId);
      expect(field(asArray(reply.json)[1], 'employees')).toEqual([second]);
    });

    it('joins both reference fields and both id kinds, and gives a parent without children []', async () => {
      const api = await company(start);
      const reply = await api.get('/companies?$populate=employees');
      expect(asArray(reply.json).map((c) => [field(c, '_id'), ids({ json: field(c, 'employees') })])).toEqual(
        [
          [1, ['e1', 'e2', 'e3']],
          [2, ['e2', 'e4']],
          [3, []],
        ],
      );
    });

    it('populates a single document', async () => {
      const api = await company(start);
      const reply = await api.get('/companies/2?$populate=employees');
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ _id: 2, name: 'Bolt' });
      expect(ids({ json: field(reply.json, 'employees') })).toEqual(['e2', 'e4']);
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
      expect(asArray(reply.json).map((c) => [field(c, '_id'), field(c, 'countries')])).toEqual([
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
      expect(ids({ json: field(reply.json, 'companies') })).toEqual([1, 2]);
    });

    it('adds the field when $select leaves the reference fields out, and leaves them out', async () => {
      const api = await company(start);
      const reply = await api.get('/employees?$select=name&$fill=companies&$sort=name');
      expect(asArray(reply.json).map((e) => Object.keys(asObject(e)))).toEqual(
        Array(4).fill(['name', 'companies']),
      );
      expect(
        asArray(reply.json).map((e) => [field(e, 'name'), ids({ json: field(e, 'companies') })]),
      ).toEqual([
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
      const acmeId = asString(field(acme, '_id'));
      await api.seed('employees', [
        { _id: 'string', company_id: acmeId },
        { _id: 'oid', company_ids: [{ $oid: acmeId }] },
        { _id: 'other', company_id: 'ffffffffffffffffffffffff' },
      ]);
      const populated = await api.get('/companies?$populate=employees');
      expect(ids({ json: field(asArray(populated.json)[0], 'employees') })).toEqual(['oid', 'string']);
      expect(ids(await api.get(`/companies/${acmeId}/employees`))).toEqual(['oid', 'string']);
      const filled = await api.get('/employees?$fill=companies');
      expect(
        asArray(filled.json).map((e) => [field(e, '_id'), asArray(field(e, 'companies')).length]),
      ).toEqual([
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
      expect(asArray(filled.json).map((p) => [field(p, '_id'), asArray(field(p, 'people')).length])).toEqual([
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
      expect(
        ids({ json: field(asArray((await api.get('/staff?$populate=shifts')).json)[0], 'shifts') }),
      ).toEqual(['a']);
      expect(ids(await api.get('/staff/1/shifts'))).toEqual(['a']);
      expect(
        asArray((await api.get('/shifts?$fill=staff')).json).map((s) => asArray(field(s, 'staff')).length),
      ).toEqual([1, 0]);
    });
  });

  describe('the bound on related documents per answer', () => {
    it('answers 400 too_many_documents when a child under many parents would pass populate.maxDocuments', async () => {
      const api = await start({ populate: { maxDocuments: 100 } });
      const tags = Array.from({ length: 10 }, (_, i) => ({ _id: `t${i}` }));
      await api.seed('tags', tags);
      const tagIds = tags.map((tag) => tag._id);
      await api.seed(
        'posts',
        Array.from({ length: 20 }, (_, i) => ({ _id: i + 1, tag_ids: tagIds })),
      );
      // 20 posts x the same 10 tags: 200 related documents in one answer.
      expectProblem(await api.get('/posts?$limit=20&$fill=tags'), 400, 'too_many_documents');
      const within = await api.get('/posts?$limit=10&$fill=tags');
      expect(within.status).toBe(200);
      expect(asArray(within.json).every((post) => asArray(field(post, 'tags')).length === 10)).toBe(true);
    });
  });
}
