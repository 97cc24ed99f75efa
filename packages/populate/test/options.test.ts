import { OptionError } from '@store/common';
import { describe, expect, it } from 'vitest';
import { type PopulateOptions, resolvePopulateOptions } from '../src/index';

describe('resolvePopulateOptions', () => {
  it('applies the defaults', () => {
    const options = resolvePopulateOptions();
    expect(options).toMatchObject({ perParentCap: 1000, maxRelations: 10, batchRounds: 2, singular: {} });
    expect(options.constraint('companies', 'employees')).toEqual({
      match: undefined,
      sort: { _id: 1 },
      limit: 1000,
    });
  });

  it('keeps defaults when an option is explicitly undefined', () => {
    expect(resolvePopulateOptions({ perParentCap: undefined }).perParentCap).toBe(1000);
  });

  it('compiles a constraint: sort keys, order, _id tie-breaker, limit clamped to the cap', () => {
    const options = resolvePopulateOptions({
      perParentCap: 50,
      population: { companies: { employees: { sort: ['-age', 'name'], order: 'desc', limit: 500 } } },
    });
    const constraint = options.constraint('companies', 'employees');
    expect(constraint.sort).toEqual({ age: -1, name: -1, _id: 1 });
    expect(Object.keys(constraint.sort)).toEqual(['age', 'name', '_id']);
    expect(constraint.limit).toBe(50);
    expect(options.constraint('employees', 'companies').limit).toBe(50);
  });

  it('takes one order per sort key', () => {
    const options = resolvePopulateOptions({
      population: { posts: { comments: { sort: ['votes', 'date'], order: ['desc', 'asc'] } } },
    });
    expect(options.constraint('posts', 'comments').sort).toEqual({ votes: -1, date: 1, _id: 1 });
  });

  it('never finds a constraint on Object.prototype', () => {
    expect(resolvePopulateOptions().constraint('constructor', 'toString').limit).toBe(1000);
  });

  it.each<[string, PopulateOptions]>([
    ['perParentCap', { perParentCap: 0 }],
    ['perParentCap', { perParentCap: 1.5 }],
    ['maxRelations', { maxRelations: -1 }],
    ['batchRounds', { batchRounds: Number.NaN }],
    ['singular.staff', { singular: { staff: 'bad.name' } }],
    ['population.a.b.limit', { population: { a: { b: { limit: 0 } } } }],
    ['population.a.b', { population: { a: { b: { sort: '$where' } } } }],
    ['population.a.b', { population: { a: { b: { sort: 'x', order: 'up' as 'asc' } } } }],
    ['population.a.b', { population: { a: { b: { sort: ['x', 'y'], order: ['asc', 'desc', 'asc'] } } } }],
    [
      'population.a.b.match',
      { population: { a: { b: { match: 'x' as unknown as Record<string, unknown> } } } },
    ],
  ])('rejects a bad %s with an OptionError naming it', (option, raw) => {
    const attempt = () => resolvePopulateOptions(raw);
    expect(attempt).toThrow(OptionError);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_config', status: 500, option, data: { option } });
    }
  });
});
