import { describe, expect, it } from 'vitest';
import { compileQuery, isQueryError, type QueryError } from './index';

const enc = encodeURIComponent;
const near = `loc:geo:near=${enc('[2.35,48.85,0,1000]')}`;
const rawNear = `$query=${enc('{"loc":{"$nearSphere":[2.35,48.85]}}')}`;

function errorOf(query: string): QueryError {
  try {
    compileQuery(query);
  } catch (error) {
    if (isQueryError(error)) return error;
    throw error;
  }
  throw new Error(`${query} compiled`);
}

describe('what MongoDB refuses around geo:near, refused by the compiler', () => {
  it.each([
    [`${near}&$search=cafe`, '$search'],
    [`$search=cafe&${rawNear}`, '$search'],
  ])('refuses $search with a $near/$nearSphere: %s', (query, parameter) => {
    const error = errorOf(query);
    expect(error).toMatchObject({ status: 400, code: 'invalid_query', parameter });
    expect(error.detail).toMatch(/\$text and \$near/);
  });

  it.each([
    [`${near}&loc:exists=true`, 'loc:exists'],
    [`loc:exists=true&${near}`, 'loc:exists'],
    [`${near}&loc=x`, 'loc'],
    [`${near}&$query=${enc('{"loc":{"$exists":true}}')}`, '$query'],
    [`${rawNear}&loc:ne=x`, 'loc:ne'],
    [`${near}&$regex=${enc('["loc","a"]')}`, '$regex'],
  ])('refuses a second condition on the geo:near field: %s', (query, parameter) => {
    const error = errorOf(query);
    expect(error).toMatchObject({ status: 400, code: 'invalid_query', parameter });
    expect(error.detail).toContain('"loc" already has a $near/$nearSphere');
  });

  it('keeps conditions on other fields beside geo:near', () => {
    expect(compileQuery(`${near}&kind=shop&$count=1`).filter).toEqual({
      loc: {
        $nearSphere: {
          $geometry: { type: 'Point', coordinates: [2.35, 48.85] },
          $minDistance: 0,
          $maxDistance: 1000,
        },
      },
      kind: 'shop',
    });
  });

  it('$search without geo:near still compiles', () => {
    expect(compileQuery('$search=cafe&kind=shop').search).toBe('cafe');
  });
});

describe('$sort key limit', () => {
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`).join(',');

  it('accepts 31 keys plus the _id tie-breaker, and 32 when _id is among them', () => {
    expect(Object.keys(compileQuery(`$sort=${keys(31)}`).sort ?? {})).toHaveLength(32);
    expect(Object.keys(compileQuery(`$sort=${keys(31)},-_id`).sort ?? {})).toHaveLength(32);
  });

  it('refuses more than MongoDB sorts on (32 keys, _id included)', () => {
    const error = errorOf(`$sort=${keys(32)}`);
    expect(error).toMatchObject({ status: 400, code: 'invalid_query', parameter: '$sort' });
    expect(error.detail).toContain('at most 31 keys besides _id');
    expect(errorOf(`$sort=${keys(40)}`).parameter).toBe('$sort');
  });
});
