import { expect, it } from 'vitest';
import { attachRelations, type PopulateDocument } from '../src/index';
import { describeEngines, seed } from './support/engines';

// service-spec.md, section 4: "given companies with ids 1 and 2, an employee with `company_id` 1,
// and an employee with `company_ids` [1,2], a request populating employees on companies returns
// company 1 with 2 employees and company 2 with 1 employee". (The 200 status is core's answer.)
describeEngines('spec rule: $populate=employees on companies', (engine) => {
  it('gives company 1 two employees and company 2 one employee', async () => {
    const db = await engine.createDb();
    await seed(db, 'companies', [{ _id: 1 }, { _id: 2 }]);
    await seed(db, 'employees', [
      { _id: 'e1', company_id: 1 },
      { _id: 'e2', company_ids: [1, 2] },
    ]);
    const page = await db
      .collection('companies')
      .find({}, { sort: { _id: 1 } })
      .toArray();

    const out = await attachRelations(page, { db, resource: 'companies', populate: ['employees'] });

    const employees = (doc: PopulateDocument | undefined) => doc?.employees as PopulateDocument[];
    expect(out.map((company) => company._id)).toEqual([1, 2]);
    expect(employees(out[0])).toHaveLength(2);
    expect(employees(out[1])).toHaveLength(1);
    expect(employees(out[0]).map((e) => e._id)).toEqual(['e1', 'e2']);
    expect(employees(out[1])).toEqual([{ _id: 'e2', company_ids: [1, 2] }]);
  });
});
