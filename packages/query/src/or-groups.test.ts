import { describe, expect, it } from 'vitest';
import { compileQuery } from './index';
import { errorOf } from './query-error.test-support';

const q = (...pairs: [string, string][]) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

describe('OR groups in the query string', () => {
  it('ANDs the filters of a group, ORs the groups and ANDs the result with the other filters', () => {
    const { filter } = compileQuery(
      'kind=post&$or[0][name:contains]=ann&$or[0][age:gt]=30&$or[1][age:number]=25&$or[1][tags:in][]=a&$or[1][tags:in][]=b',
    );
    expect(filter).toEqual({
      kind: 'post',
      $or: [
        { name: { $regex: 'ann', $options: 'i' }, age: { $gt: 30 } },
        { age: 25, tags: { $in: ['a', 'b'] } },
      ],
    });
  });

  it('reads percent-encoded brackets as a browser sends them', () => {
    const plain = compileQuery('$or[0][a]=1&$or[1][b]=2').filter;
    expect(compileQuery(q(['$or[0][a]', '1'], ['$or[1][b]', '2'])).filter).toEqual(plain);
    expect(plain).toEqual({ $or: [{ a: { $in: ['1', 1] } }, { b: { $in: ['2', 2] } }] });
  });

  it('takes a repeated key and the key[] form as several values', () => {
    expect(compileQuery('$or[0][n:in]=x&$or[0][n:in]=y&$or[1][m:in[]]=z').filter).toEqual({
      $or: [{ n: { $in: ['x', 'y'] } }, { m: { $in: ['z'] } }],
    });
  });

  it('keeps a top-level $or of $query apart from the groups', () => {
    const { filter } = compileQuery(`$or[0][a]=x&${q(['$query', '{"$or":[{"b":1},{"c":2}]}'])}`);
    expect(filter).toEqual({ $or: [{ b: 1 }, { c: 2 }], $and: [{ $or: [{ a: 'x' }] }] });
  });

  it('reads groups from an already-parsed query object', () => {
    expect(compileQuery({ $or: [{ a: 'x' }, { 'b:gt': '2' }] }).filter).toEqual({
      $or: [{ a: 'x' }, { b: { $gt: 2 } }],
    });
  });

  it('accepts 20 groups', () => {
    const groups = Array.from({ length: 20 }, (_, i) => `$or[${i}][a]=x${i}`).join('&');
    expect((compileQuery(groups).filter.$or as unknown[]).length).toBe(20);
  });

  it.each([
    ['a non-numeric group index', '$or[x][a]=1', 'the group index must be an integer'],
    ['a negative group index', '$or[-1][a]=1', 'the group index must be an integer'],
    ['a group without a field', '$or[0]=1', 'OR groups are written'],
    ['an empty field', '$or[0][]=1', 'a group needs a field'],
    ['a bare $or', '$or=1', 'OR groups are written'],
    ['a nested $or', '$or[0][$or][1][a]=1', 'OR groups are written'],
    ['a reserved parameter in a group', '$or[0][$query]={}', 'groups do not nest'],
    ['an unknown operator in a group', '$or[0][a:like]=1', 'unknown modifier "like"'],
    ['a bad coercion in a group', '$or[0][a:number]=x', '$or[0][a:number]'],
    ['a bad field name in a group', '$or[0][a..b]=1', '$or[0][a..b]'],
    ['geo:near in a group', '$or[0][loc:geo:near]=[1,2,0,10]', 'cannot be inside an OR group'],
    ['21 groups', Array.from({ length: 21 }, (_, i) => `$or[${i}][a]=1`).join('&'), 'at most 20 groups'],
  ])('rejects %s with a 400 invalid_query', (_, query, detail) => {
    const error = errorOf(() => compileQuery(query));
    expect(error).toMatchObject({ status: 400, code: 'invalid_query' });
    expect(error.message).toContain(detail);
  });

  it('rejects a group object holding an empty group', () => {
    expect(errorOf(() => compileQuery({ $or: [{}] })).message).toContain('a group needs a field');
  });
});
