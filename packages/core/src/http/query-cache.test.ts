import { describe, expect, it } from 'vitest';
import { QUERY_CACHE_SIZE, QueryCache } from './query-cache';

const request = (rawQuery: string) => ({ method: 'GET', path: '/items', rawQuery, headers: {} });

describe('QueryCache', () => {
  it('compiles a query string once and hands every request the same frozen query', () => {
    const queries = new QueryCache({ defaultLimit: 10, maxLimit: 50 });
    const first = queries.of(request('n:gt=5&tags:in[]=a&$sort=-n&$limit=100'));
    expect(queries.of(request('?n:gt=5&tags:in[]=a&$sort=-n&$limit=100'))).toBe(first);
    expect(first).toMatchObject({ filter: { n: { $gt: 5 }, tags: { $in: ['a'] } }, limit: 50 });
    expect(Object.isFrozen(first.filter)).toBe(true);
    expect(Object.isFrozen((first.filter.tags as { $in: string[] }).$in)).toBe(true);
    expect(() => {
      (first.filter as Record<string, unknown>).n = 1;
    }).toThrow(TypeError);
  });

  it('throws the 400 of a bad query string every time, keeping nothing for it', () => {
    const queries = new QueryCache({});
    for (let i = 0; i < 2; i++) expect(() => queries.of(request('$limit=abc'))).toThrow(/\$limit/);
  });

  it('keeps at most QUERY_CACHE_SIZE strings, dropping the one kept longest first', () => {
    const queries = new QueryCache({});
    const oldest = queries.of(request('n=0'));
    const second = queries.of(request('n=1'));
    for (let i = 2; i <= QUERY_CACHE_SIZE; i++) queries.of(request(`n=${i}`));
    expect(queries.of(request('n=1'))).toBe(second);
    const again = queries.of(request('n=0'));
    expect(again).not.toBe(oldest);
    expect(again).toEqual(oldest);
  });
});
