import { ObjectId } from 'bson';
import { expect, it } from 'vitest';
import { attachRelations, type PopulateDocument, resolvePopulateOptions } from '../src/index';
import { describeEngines, seed } from './support/engines';

const HEX = '64b7f0c2a1b2c3d4e5f60718';
const ids = (list: unknown) => (list as PopulateDocument[]).map((doc) => doc._id);

describeEngines('$fill', (engine) => {
  it('adds each child its parents, by <singular>_id and by <singular>_ids', async () => {
    const db = await engine.createDb();
    await seed(db, 'companies', [
      { _id: 1, name: 'A' },
      { _id: 2, name: 'B' },
    ]);
    const page = [
      { _id: 'e1', company_id: 1 },
      { _id: 'e2', company_ids: [2, 1] },
      { _id: 'e3', company_id: 2, company_ids: [2] },
      { _id: 'e4' },
      { _id: 'e5', company_id: 99 },
    ];
    const out = await attachRelations(page, { db, resource: 'employees', fill: ['companies'] });
    expect(out.map((doc) => ids(doc.companies))).toEqual([[1], [1, 2], [2], [], []]);
    expect(out[0]?.companies).toEqual([{ _id: 1, name: 'A' }]);
  });
});

type Kind = 'number' | 'string' | 'objectId' | 'hex' | 'upperHex';
const VALUE: Record<Kind, unknown> = {
  number: 42,
  string: '42',
  objectId: new ObjectId(HEX),
  hex: HEX,
  upperHex: HEX.toUpperCase(),
};
const PAIRS: [Kind, Kind][] = [
  ['number', 'string'],
  ['string', 'number'],
  ['number', 'number'],
  ['objectId', 'hex'],
  ['hex', 'objectId'],
  ['objectId', 'objectId'],
  ['upperHex', 'upperHex'],
];

describeEngines('references across id kinds', (engine) => {
  it.each(PAIRS)(
    'joins a parent _id stored as %s with a reference stored as %s',
    async (parentKind, refKind) => {
      const db = await engine.createDb();
      const parentId = VALUE[parentKind];
      const refId = VALUE[refKind];
      await seed(db, 'companies', [{ _id: parentId }]);
      await seed(db, 'employees', [
        { _id: 'one', company_id: refId },
        { _id: 'many', company_ids: [refId] },
      ]);
      const [company] = await attachRelations([{ _id: parentId }], {
        db,
        resource: 'companies',
        populate: ['employees'],
      });
      expect(ids(company?.employees)).toEqual(['many', 'one']);
      const filled = await attachRelations([{ _id: 'e', company_ids: [refId] }], {
        db,
        resource: 'employees',
        fill: ['companies'],
      });
      expect(filled[0]?.companies).toEqual([{ _id: parentId }]);
    },
  );
});

describeEngines('irregular plurals', (engine) => {
  it('joins people through person_id / person_ids both ways', async () => {
    const db = await engine.createDb();
    await seed(db, 'people', [{ _id: 1 }, { _id: 2 }]);
    await seed(db, 'pets', [
      { _id: 'p1', person_id: 1 },
      { _id: 'p2', person_ids: [1, 2] },
    ]);
    const people = await attachRelations([{ _id: 1 }, { _id: 2 }], {
      db,
      resource: 'people',
      populate: ['pets'],
    });
    expect(people.map((person) => ids(person.pets))).toEqual([['p1', 'p2'], ['p2']]);
    const pets = await attachRelations([{ _id: 'p2', person_ids: [1, 2] }], {
      db,
      resource: 'pets',
      fill: ['people'],
    });
    expect(ids(pets[0]?.people)).toEqual([1, 2]);
  });

  it('uses a per-resource singular override', async () => {
    const db = await engine.createDb();
    await seed(db, 'shifts', [
      { _id: 's1', staffer_id: 1 },
      { _id: 's2', staff_id: 1 },
    ]);
    const options = resolvePopulateOptions({ singular: { staff: 'staffer' } });
    const out = await attachRelations([{ _id: 1 }], { db, resource: 'staff', populate: ['shifts'] }, options);
    expect(ids(out[0]?.shifts)).toEqual(['s1']);
  });
});

describeEngines('several relations in one request', (engine) => {
  it('attaches children and parents side by side', async () => {
    const db = await engine.createDb();
    await seed(db, 'countries', [{ _id: 'fr' }, { _id: 'de' }]);
    await seed(db, 'employees', [
      { _id: 'e1', company_id: 1 },
      { _id: 'e2', company_id: 2 },
    ]);
    await seed(db, 'projects', [{ _id: 'p1', company_ids: [1, 2] }]);
    const page = [
      { _id: 1, country_id: 'fr' },
      { _id: 2, country_ids: ['fr', 'de'] },
    ];
    const out = await attachRelations(page, {
      db,
      resource: 'companies',
      populate: ['employees', 'projects', 'employees'],
      fill: ['countries'],
    });
    expect(out.map((c) => [ids(c.employees), ids(c.projects), ids(c.countries)])).toEqual([
      [['e1'], ['p1'], ['fr']],
      [['e2'], ['p1'], ['de', 'fr']],
    ]);
  });
});
