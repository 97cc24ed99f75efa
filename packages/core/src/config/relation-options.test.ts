import { referenceFields } from '@store/populate';
import { describe, expect, it } from 'vitest';
import { optionError } from '../../test/support/option-error';
import { resolveStoreOptions } from './options';

const population = (constraint: unknown) => ({
  resources: { companies: { population: { employees: constraint } } },
});

describe('relationship options', () => {
  it('applies the populate defaults', () => {
    const options = resolveStoreOptions({});
    expect(options.populate).toMatchObject({ perParentCap: 1000, maxRelations: 10, batchRounds: 2 });
    expect(options.relations).toEqual([]);
    expect(options.populate.constraint('companies', 'employees')).toMatchObject({
      limit: 1000,
      sort: { _id: 1 },
    });
  });

  it('keeps a default when a populate option is explicitly undefined', () => {
    expect(resolveStoreOptions({ populate: { perParentCap: undefined } }).populate.perParentCap).toBe(1000);
  });

  it('resolves singular overrides, constraints (limit clamped to the cap) and the declared relations', () => {
    const options = resolveStoreOptions({
      populate: { perParentCap: 50, maxRelations: 3 },
      resources: {
        staff: { singular: 'staffer', population: { shifts: { sort: '-start', limit: 500 } } },
        people: { population: { pets: { match: { alive: true } } } },
      },
    });
    expect(referenceFields('staff', options.populate.singular)).toEqual({
      one: 'staffer_id',
      many: 'staffer_ids',
    });
    expect(options.populate.constraint('staff', 'shifts')).toMatchObject({
      sort: { start: -1, _id: 1 },
      limit: 50,
    });
    expect(options.populate.constraint('people', 'pets').match).toEqual({ alive: true });
    expect(options.populate.maxRelations).toBe(3);
    expect(options.relations).toEqual([
      { resource: 'staff', relation: 'shifts' },
      { resource: 'people', relation: 'pets' },
    ]);
  });

  it('never mutates the configuration', () => {
    const config = Object.freeze({
      resources: Object.freeze({
        companies: Object.freeze({ population: Object.freeze({ employees: Object.freeze({ limit: 2 }) }) }),
      }),
    });
    expect(() => resolveStoreOptions(config)).not.toThrow();
  });

  it.each([
    ['populate that is not an object', { populate: 5 }, 'populate'],
    ['an unknown populate option', { populate: { cap: 1 } }, 'populate.cap'],
    ['a zero perParentCap', { populate: { perParentCap: 0 } }, 'populate.perParentCap'],
    ['a fractional maxRelations', { populate: { maxRelations: 1.5 } }, 'populate.maxRelations'],
    ['a negative batchRounds', { populate: { batchRounds: -1 } }, 'populate.batchRounds'],
    ['a singular with a space', { resources: { staff: { singular: 'a b' } } }, 'resources.staff.singular'],
    [
      'a singular that is not a string',
      { resources: { staff: { singular: 5 } } },
      'resources.staff.singular',
    ],
    ['population that is not an object', { resources: { c: { population: [] } } }, 'resources.c.population'],
    [
      'a relation that is not a resource name',
      { resources: { c: { population: { 'a.b': {} } } } },
      'resources.c.population.a.b',
    ],
    [
      'a relation to an undeclared resource under restrict',
      { restrict: true, resources: { c: { population: { e: {} } } } },
      'resources.c.population.e',
    ],
    ['a constraint that is not an object', population(true), 'resources.companies.population.employees'],
    ['an unknown constraint key', population({ lmit: 1 }), 'resources.companies.population.employees.lmit'],
    ['a zero limit', population({ limit: 0 }), 'resources.companies.population.employees.limit'],
    [
      'a match that is a string',
      population({ match: 'x' }),
      'resources.companies.population.employees.match',
    ],
    ['a sort on a $ field', population({ sort: '$where' }), 'resources.companies.population.employees'],
    ['an unknown order', population({ sort: 'a', order: 'up' }), 'resources.companies.population.employees'],
    [
      'more orders than sort keys',
      population({ sort: 'a', order: ['asc', 'desc'] }),
      'resources.companies.population.employees',
    ],
  ])('rejects %s with invalid_config, naming the option', (_, config, option) => {
    const error = optionError(config);
    expect(error).toMatchObject({ code: 'invalid_config', option });
    expect(error.message).toContain(`"${option}"`);
  });
});
