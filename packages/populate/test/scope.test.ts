import { expect, it } from 'vitest';
import {
  attachRelations,
  type PopulateDocument,
  PopulateError,
  requiredFields,
  withJoinKeys,
} from '../src/index';
import { countingDb } from './support/counting';
import { describeEngines, seed } from './support/engines';

const ids = (list: unknown) => (list as PopulateDocument[]).map((doc) => doc._id);

describeEngines('caller scope and input safety', (engine) => {
  async function setup() {
    const db = await engine.createDb();
    await seed(db, 'svc-employees', [
      { _id: 'a', company_id: 1, owner: 'u1', secret: 's', profile: { token: 't', name: 'Ann' } },
      { _id: 'b', company_id: 1, owner: 'u2', secret: 's', profile: { token: 't', name: 'Bob' } },
    ]);
    return db;
  }

  it('reads the mapped collection, ANDs the access filter and strips hidden fields', async () => {
    const db = await setup();
    const seen: string[] = [];
    const out = await attachRelations([{ _id: 1 }], {
      db,
      resource: 'companies',
      populate: ['employees'],
      scope: async (resource) => {
        seen.push(resource);
        return { collection: 'svc-employees', filter: { owner: 'u1' }, hidden: ['secret', 'profile.token'] };
      },
    });
    expect(seen).toEqual(['employees']);
    expect(out).toEqual([
      { _id: 1, employees: [{ _id: 'a', company_id: 1, owner: 'u1', profile: { name: 'Ann' } }] },
    ]);
  });

  it('lets the scope reject a resource', async () => {
    const db = await setup();
    const scope = () => {
      throw new Error('forbidden resource');
    };
    await expect(
      attachRelations([{ _id: 1 }], { db, resource: 'companies', populate: ['x'], scope }),
    ).rejects.toThrow('forbidden resource');
  });

  it('strips join keys the caller did not select, after the join', async () => {
    const db = await engine.createDb();
    await seed(db, 'companies', [{ _id: 1 }]);
    const out = await attachRelations([{ _id: 'e', name: 'Ann', company_id: 1 }], {
      db,
      resource: 'employees',
      fill: ['companies'],
      strip: ['_id', 'company_id', 'company_ids'],
    });
    expect(out).toEqual([{ name: 'Ann', companies: [{ _id: 1 }] }]);
  });

  it('adds relations when $select left out the join keys, and leaves the keys out', async () => {
    const db = await engine.createDb();
    await seed(db, 'companies', [{ _id: 1, name: 'A' }]);
    await seed(db, 'projects', [{ _id: 'p', employee_ids: ['e'] }]);
    await seed(db, 'employees', [{ _id: 'e', name: 'Ann', company_id: 1, age: 30 }]);
    const keys = requiredFields('employees', ['projects'], ['companies']);
    const { projection, added } = withJoinKeys({ name: 1, _id: 0 }, keys);
    const page = await db.collection('employees').find({}, { projection }).toArray();
    const out = await attachRelations(page, {
      db,
      resource: 'employees',
      populate: ['projects'],
      fill: ['companies'],
      strip: added,
    });
    expect(out).toEqual([
      { name: 'Ann', projects: [{ _id: 'p', employee_ids: ['e'] }], companies: [{ _id: 1, name: 'A' }] },
    ]);
  });

  it('lists a child once even when it references the parent in both fields', async () => {
    const db = await engine.createDb();
    await seed(db, 'employees', [{ _id: 'a', company_id: 1, company_ids: [1, '1'] }]);
    const out = await attachRelations([{ _id: 1 }], { db, resource: 'companies', populate: ['employees'] });
    expect(ids(out[0]?.employees)).toEqual(['a']);
  });

  it('lists a child only under the ids its reference fields hold, not ids nested in arrays', async () => {
    const db = await engine.createDb();
    await seed(db, 'employees', [{ _id: 'a', company_id: 1, company_ids: [[2]] }]);
    const out = await attachRelations([{ _id: 1 }, { _id: 2 }], {
      db,
      resource: 'companies',
      populate: ['employees'],
    });
    expect(out.map((doc) => ids(doc.employees))).toEqual([['a'], []]);
  });

  it('adds nothing to the query for a scope filter that matches everything', async () => {
    const counted = countingDb(await setup());
    await attachRelations([{ _id: 1 }], {
      db: counted.db,
      resource: 'companies',
      populate: ['employees'],
      scope: async () => ({ collection: 'svc-employees', filter: {} }),
    });
    expect(counted.calls.map((call) => call.filter)).toEqual([
      { $or: [{ company_id: { $in: [1, '1'] } }, { company_ids: { $in: [1, '1'] } }] },
    ]);
  });

  it('never mutates the input documents', async () => {
    const db = await setup();
    const page = [Object.freeze({ _id: 1, name: 'A', nested: Object.freeze({ x: 1 }) })];
    const out = await attachRelations(page, {
      db,
      resource: 'companies',
      populate: ['svc-employees'],
      strip: ['nested.x'],
    });
    expect(page).toEqual([{ _id: 1, name: 'A', nested: { x: 1 } }]);
    expect(out[0]).not.toBe(page[0]);
    expect(out[0]).toMatchObject({ _id: 1, name: 'A', nested: {} });
  });

  it.each([
    ['invalid_relation', { populate: ['$where'] }],
    ['invalid_relation', { fill: [{ $gt: '' }] as unknown as string[] }],
    ['invalid_relation', { populate: '__proto__' as unknown as string[] }],
    ['relation_conflict', { populate: ['companies'], fill: ['companies'] }],
    ['too_many_relations', { populate: Array.from({ length: 11 }, (_, i) => `r${i}`) }],
  ])('rejects hostile relation lists with %s', async (code, lists) => {
    const db = await engine.createDb();
    const attempt = attachRelations([{ _id: 1 }], { db, resource: 'companies', ...lists });
    await expect(attempt).rejects.toBeInstanceOf(PopulateError);
    await expect(attempt).rejects.toMatchObject({ code, status: 400 });
  });
});
