import type { Projection } from '@store/query';
import { describe, expect, it } from 'vitest';
import { omitFields, requiredFields, stripFields, withJoinKeys } from '../src/index';

describe('requiredFields', () => {
  it('needs _id to populate and both reference fields to fill', () => {
    expect(requiredFields('employees', ['projects'], ['companies', 'people'])).toEqual([
      '_id',
      'company_id',
      'company_ids',
      'person_id',
      'person_ids',
    ]);
  });

  it('needs nothing without relations', () => {
    expect(requiredFields('employees')).toEqual([]);
  });
});

describe('withJoinKeys', () => {
  const keys = ['_id', 'company_id', 'company_ids'];
  it.each<[string, Projection | undefined, Projection | undefined, string[]]>([
    ['no projection', undefined, undefined, []],
    ['an inclusion without the keys', { name: 1, _id: 0 }, { name: 1, company_id: 1, company_ids: 1 }, keys],
    [
      'an inclusion with the keys',
      { name: 1, company_id: 1, company_ids: 1 },
      { name: 1, company_id: 1, company_ids: 1 },
      [],
    ],
    [
      'an inclusion of _id only',
      { _id: 1 },
      { _id: 1, company_id: 1, company_ids: 1 },
      ['company_id', 'company_ids'],
    ],
    ['an exclusion of a key', { company_id: 0, secret: 0 }, { secret: 0 }, ['company_id']],
    [
      'a sub-path of a key',
      { 'company_id.x': 1 },
      { company_id: 1, company_ids: 1 },
      ['company_id', 'company_ids'],
    ],
  ])('extends %s', (_case, projection, expected, added) => {
    const before = projection === undefined ? undefined : { ...projection };
    const out = withJoinKeys(projection, keys);
    expect(out).toEqual({ projection: expected, added });
    expect(projection).toEqual(before);
  });
});

describe('stripFields', () => {
  it('removes top-level and dotted fields without touching the input', () => {
    const doc = { _id: 1, secret: 's', profile: { token: 't', name: 'n' }, list: [{ token: 'x' }] };
    const frozen = structuredClone(doc);
    expect(stripFields([doc], ['secret', 'profile.token', 'list.token', 'missing.path'])).toEqual([
      { _id: 1, profile: { name: 'n' }, list: [{}] },
    ]);
    expect(doc).toEqual(frozen);
  });

  it('removes a path inside arrays of embedded documents at any depth, leaving other values', () => {
    const when = new Date(0);
    const doc = {
      cards: [{ cvv: 1, n: 'a' }, 'plain', [{ cvv: 2 }], { cvv: { deep: 3 } }],
      wallets: [{ cards: [{ cvv: 4, n: 'b' }] }, { cards: { cvv: 5 } }],
      when,
    };
    const frozen = structuredClone(doc);
    expect(omitFields(doc, ['cards.cvv', 'wallets.cards.cvv', 'when.x'])).toEqual({
      cards: [{ n: 'a' }, 'plain', [{}], {}],
      wallets: [{ cards: [{ n: 'b' }] }, { cards: {} }],
      when,
    });
    expect(doc).toEqual(frozen);
  });

  it('copies even when nothing is removed', () => {
    const doc = { a: 1 };
    expect(omitFields(doc, [])).not.toBe(doc);
  });

  it('keeps the order of the fields left, and an own __proto__ field as a field', () => {
    const doc = JSON.parse('{"_id":1,"__proto__":{"admin":true},"secret":"s","b":2,"a":3}');
    const out = omitFields(doc, ['secret']);
    expect(Object.keys(out)).toEqual(['_id', '__proto__', 'b', 'a']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { admin?: unknown }).admin).toBeUndefined();
    expect(JSON.stringify(out)).toBe('{"_id":1,"__proto__":{"admin":true},"b":2,"a":3}');
  });
});
