import { describe, expect, it } from 'vitest';
import { referenceFields, singular } from '../src/index';

describe('singular', () => {
  it.each([
    ['companies', 'company'],
    ['people', 'person'],
    ['employees', 'employee'],
    ['countries', 'country'],
    ['children', 'child'],
    ['posts', 'post'],
    ['news', 'news'],
  ])('singularizes %s to %s', (plural, expected) => {
    expect(singular(plural)).toBe(expected);
  });

  it('prefers a per-resource override', () => {
    expect(singular('staff', { staff: 'staffer' })).toBe('staffer');
    expect(singular('people', { staff: 'staffer' })).toBe('person');
  });

  it('keeps answering right once it has seen more names than it remembers', () => {
    for (let i = 0; i < 1_500; i++) expect(singular(`widget${i}s`)).toBe(`widget${i}`);
    expect(singular('companies')).toBe('company');
    expect(singular('widget7s')).toBe('widget7');
  });

  it('never reads an override from Object.prototype', () => {
    expect(singular('constructor', {})).toBe('constructor');
    expect(singular('toString', { staff: 'x' })).toBe('toString');
  });
});

describe('referenceFields', () => {
  it.each([
    ['companies', { one: 'company_id', many: 'company_ids' }],
    ['people', { one: 'person_id', many: 'person_ids' }],
  ])('names the reference fields towards %s', (parent, expected) => {
    expect(referenceFields(parent)).toEqual(expected);
  });

  it('uses the override', () => {
    expect(referenceFields('staff', { staff: 'staffer' })).toEqual({
      one: 'staffer_id',
      many: 'staffer_ids',
    });
  });
});
