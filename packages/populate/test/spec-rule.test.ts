import { expect, it } from 'vitest';
import { attachRelations, type PopulateDocument } from '../src/index';
import { describeEngines, seed } from './support/engines';

// Companies 1 and 2, an employee with `company_id` 1 and one with `company_ids` [1,2]: populating
// employees on companies gives company 1 two employees and company 2 one, as in the example of
// docs/relationships.md#examples. (The 200 status is core's answer.)
describeEngines('$populate=employees on companies matches both company_id and company_ids', (engine) => {
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
