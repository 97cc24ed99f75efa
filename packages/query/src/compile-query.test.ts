import { OptionError } from '@store/common';
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { compileQuery, isQueryError, QueryError } from './index';
import { errorOf } from './query-error.test-support';

/** Builds a query string from [key, value] pairs, encoding both as a browser would. */
const q = (...pairs: [string, string][]) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

const filterOf = (query: string) => compileQuery(query).filter;

describe('compileQuery', () => {
  it('compiles filters, $sort and $limit together, with _id as the last sort key', () => {
    const compiled = compileQuery('points:gt=10&tags:in[]=a&tags:in[]=b&$sort=-views&$limit=5');
    expect(compiled.filter).toEqual({ points: { $gt: 10 }, tags: { $in: ['a', 'b'] } });
    expect(compiled.sort).toEqual({ views: -1, _id: 1 });
    expect(compiled.limit).toBe(5);
    expect(compiled.skip).toBe(0);
  });

  it('answers defaults for an empty query', () => {
    for (const input of ['', '?', {}]) {
      expect(compileQuery(input)).toEqual({
        filter: {},
        projection: undefined,
        sort: { _id: 1 },
        skip: 0,
        limit: 10,
        count: false,
        total: false,
        after: undefined,
        populate: [],
        fill: [],
        search: undefined,
        flags: {},
      });
    }
  });

  it('accepts a leading "?"', () => {
    expect(filterOf('?a=x')).toEqual({ a: 'x' });
  });

  describe('equality', () => {
    it.each([
      ['a=x', { a: 'x' }],
      ['a=5', { a: { $in: ['5', 5] } }],
      ['a=-1.5e2', { a: { $in: ['-1.5e2', -150] } }],
      ['a=true', { a: { $in: ['true', true] } }],
      ['a=false', { a: { $in: ['false', false] } }],
      ['a=', { a: '' }],
      ['a=0x10', { a: '0x10' }],
      ['a=12345678901234567890', { a: '12345678901234567890' }],
      ['id=1&id=x', { id: { $in: ['1', 1, 'x'] } }],
      ['author.name=Ann', { 'author.name': 'Ann' }],
      ['a:eq=5', { a: { $in: ['5', 5] } }],
      ['a:eq=x&a:eq=y', { a: { $in: ['x', 'y'] } }],
    ])('%s', (query, filter) => {
      expect(filterOf(query)).toEqual(filter);
    });
  });

  describe('coercions', () => {
    const id = '5f1d7f3e9d1b2c3a4b5c6d7e';
    it.each([
      ['a:bool=true', { a: true }],
      ['a:bool=0', { a: false }],
      ['a:number=5', { a: 5 }],
      ['a:number=1&a:number=2', { a: { $in: [1, 2] } }],
      ['d:date=2024-05-01', { d: new Date('2024-05-01T00:00:00Z') }],
      ['d:date=2024-05-01T10:20', { d: new Date('2024-05-01T10:20:00Z') }],
      ['d:date=2024-05-01T10:20:30.5%2B02:00', { d: new Date('2024-05-01T08:20:30.500Z') }],
      ['d:date=0', { d: new Date(0) }],
      [`a:id=${id}`, { a: new ObjectId(id) }],
    ])('%s', (query, filter) => {
      expect(filterOf(query)).toEqual(filter);
    });

    it.each([
      'a:bool=yes',
      'a:number=x',
      'a:number=',
      'a:number=Infinity',
      'd:date=2024-02-30',
      'd:date=2024-05-01T25:00',
      'd:date=yesterday',
      'a:id=123',
      'a:gt:id=zz',
      'a:unknown=1',
      'a:gt:weird=1',
      'a:gt:number:x=1',
      'a:size:number=1',
      'a:exists:bool=true',
    ])('rejects %s with invalid_query', (query) => {
      const error = errorOf(() => compileQuery(query));
      expect(error).toMatchObject({ status: 400, code: 'invalid_query', parameter: query.split('=')[0] });
    });
  });

  describe('operators', () => {
    it.each([
      ['a:ne=x', { a: { $ne: 'x' } }],
      ['a:ne=5', { a: { $nin: ['5', 5] } }],
      ['a:ne=x&a:ne=y', { a: { $nin: ['x', 'y'] } }],
      ['a:lt=5', { a: { $lt: 5 } }],
      ['a:lte=b', { a: { $lte: 'b' } }],
      ['a:gte=1&a:lt=9', { a: { $gte: 1, $lt: 9 } }],
      ['a:gt=1&a:gt=2', { a: { $gt: 1 }, $and: [{ a: { $gt: 2 } }] }],
      ['a:gt:date=2024-01-01', { a: { $gt: new Date('2024-01-01T00:00:00Z') } }],
      ['a:gt:number=7', { a: { $gt: 7 } }],
      ['a:in=x', { a: { $in: ['x'] } }],
      ['a:in[]=1&a:in[]=x', { a: { $in: ['1', 1, 'x'] } }],
      ['a:in:number=1&a:in:number=2', { a: { $in: [1, 2] } }],
      ['a:nin[]=x&a:nin[]=true', { a: { $nin: ['x', 'true', true] } }],
      ['a:ne:bool=1', { a: { $ne: true } }],
      ['tags:size=0', { tags: { $size: 0 } }],
      ['a:exists=true', { a: { $exists: true } }],
      ['a:exists=false', { a: { $exists: false } }],
      ['t:contains=a.b', { t: { $regex: 'a\\.b', $options: 'i' } }],
      ['t:startsWith=(x', { t: { $regex: '^\\(x', $options: 'i' } }],
      ['t:endsWith=$', { t: { $regex: '\\$\\z', $options: 'i' } }],
      ['a=x&a:ne=y', { a: 'x', $and: [{ a: { $ne: 'y' } }] }],
    ])('%s', (query, filter) => {
      expect(filterOf(query)).toEqual(filter);
    });

    it.each(['a:size=-1', 'a:size=1.5', 'a:exists=1', 't:contains='])(
      'rejects %s with invalid_query',
      (query) => {
        expect(errorOf(() => compileQuery(query)).code).toBe('invalid_query');
      },
    );

    it('rejects a contains longer than 256 characters with unsafe_regex', () => {
      expect(errorOf(() => compileQuery(`t:contains=${'a'.repeat(257)}`)).code).toBe('unsafe_regex');
    });
  });

  describe('field names', () => {
    it.each([
      ['a..b=1', 'a..b'],
      ['.a=1', '.a'],
      ['a.=1', 'a.'],
      ['a.$b=1', 'a.$b'],
      [`${'a'.repeat(201)}=1`, 'a'.repeat(201)],
      ['a%00b=1', 'a\0b'],
      ['constructor=1', 'constructor'],
      ['a.__proto__.b=1', 'a.__proto__.b'],
      [':gt=1', ':gt'],
    ])('rejects %j', (query, parameter) => {
      expect(errorOf(() => compileQuery(query))).toMatchObject({ code: 'invalid_query', parameter });
    });

    it('accepts a 200-character path', () => {
      expect(filterOf(`${'a'.repeat(200)}=x`)).toEqual({ ['a'.repeat(200)]: 'x' });
    });
  });

  describe('nested parameters', () => {
    it.each(['name[$ne]=x', 'a[b]=1', 'a[b][c]=1', 'a[]=1&a[][b]=2', 'a[=1'])('rejects %s', (query) => {
      const error = errorOf(() => compileQuery(query));
      expect(error).toMatchObject({ status: 400, code: 'invalid_query' });
      expect(error.detail).toContain(error.parameter);
    });
  });

  describe('reserved parameters', () => {
    it('$select lists fields, _id only when listed, drops nested duplicates', () => {
      expect(compileQuery('$select=a&$select=b.c').projection).toEqual({ a: 1, 'b.c': 1, _id: 0 });
      expect(compileQuery('$select[]=a&$select[]=_id').projection).toEqual({ a: 1, _id: 1 });
      expect(compileQuery('$select=a,a.b').projection).toEqual({ a: 1, _id: 0 });
    });

    it('$page and $limit give skip and limit, clamped', () => {
      expect(compileQuery('$page=3&$limit=20')).toMatchObject({ skip: 60, limit: 20 });
      expect(compileQuery('$page=2')).toMatchObject({ skip: 20, limit: 10 });
      expect(compileQuery('$limit=5000')).toMatchObject({ limit: 1000 });
      expect(compileQuery('$limit=50', { maxLimit: 20, defaultLimit: 5 })).toMatchObject({ limit: 20 });
      expect(compileQuery('', { defaultLimit: 5 })).toMatchObject({ limit: 5 });
    });

    it.each([
      ['$sort=a', { a: 1, _id: 1 }],
      ['$sort=-a&$sort=b', { a: -1, b: 1, _id: 1 }],
      ['$sort=a,-b', { a: 1, b: -1, _id: 1 }],
      ['$sort=a&$order=desc', { a: -1, _id: 1 }],
      ['$sort=a&$sort=b&$order[]=desc&$order[]=asc', { a: -1, b: 1, _id: 1 }],
      ['$sort=a&$sort=b&$order[]=desc', { a: -1, b: 1, _id: 1 }],
      ['$sort=-_id', { _id: -1 }],
      ['$sort=_id&$sort=a', { _id: 1, a: 1 }],
    ])('%s sorts %j', (query, sort) => {
      const compiled = compileQuery(query);
      expect(compiled.sort).toEqual(sort);
      expect(Object.keys(compiled.sort ?? {})).toEqual(Object.keys(sort));
    });

    it('$count', () => {
      expect(compileQuery('$count=1').count).toBe(true);
      expect(compileQuery('$count=true').count).toBe(true);
      expect(compileQuery('$count=0').count).toBe(false);
    });

    it('$populate and $fill: names in order, deduplicated, commas allowed', () => {
      expect(compileQuery('$populate=employees&$populate=notes,employees').populate).toEqual([
        'employees',
        'notes',
      ]);
      expect(compileQuery('$fill[]=companies&$fill[]=users').fill).toEqual(['companies', 'users']);
    });

    it('$search', () => {
      expect(compileQuery('$search=%20red%20shoes%20').search).toBe('red shoes');
    });

    it('$$flags are kept apart from the filter, repeated flags keep every value', () => {
      const compiled = compileQuery('$$lang=fr&$$tag=a&$$tag=b&x=1');
      expect(compiled.flags).toEqual({ lang: 'fr', tag: ['a', 'b'] });
      expect(compiled.filter).toEqual({ x: { $in: ['1', 1] } });
    });

    it('$regex compiles a case-insensitive field regex', () => {
      expect(filterOf(q(['$regex', '["title","^hello","i"]']))).toEqual({
        title: { $regex: '^hello', $options: 'i' },
      });
      expect(filterOf(q(['$regex', '["title","a.b",""]']))).toEqual({ title: { $regex: 'a[^\\n]b' } });
    });

    it('$regex without flags is case-insensitive', () => {
      expect(filterOf(q(['$regex', '["name","paquirris"]']))).toEqual({
        name: { $regex: 'paquirris', $options: 'i' },
      });
    });

    it('$regex applies x and s to the pattern itself', () => {
      expect(filterOf(q(['$regex', '["t","a b # comment\\n c [ ]","x"]']))).toEqual({
        t: { $regex: 'abc[ ]' },
      });
      expect(filterOf(q(['$regex', '["t","a.b[.]","s"]']))).toEqual({ t: { $regex: 'a[\\s\\S]b[.]' } });
    });

    it('$query is ANDed with the other filters', () => {
      expect(filterOf(q(['$query', '{"a":{"$gt":1}}'], ['a:lt', '5'], ['b', 'x']))).toEqual({
        a: { $gt: 1, $lt: 5 },
        b: 'x',
      });
      expect(filterOf(q(['$query', '{"a":1}'], ['a', 'x']))).toEqual({ a: 1, $and: [{ a: 'x' }] });
      expect(filterOf(q(['$query', '{"$and":[{"a":1}]}'], ['$query', '{"$and":[{"b":2}]}']))).toEqual({
        $and: [{ a: 1 }, { b: 2 }],
      });
    });

    it('$query reads Extended JSON (relaxed)', () => {
      const id = '5f1d7f3e9d1b2c3a4b5c6d7e';
      expect(
        filterOf(q(['$query', `{"_id":{"$oid":"${id}"},"at":{"$gte":{"$date":"2024-01-01T00:00:00Z"}}}`])),
      ).toEqual({ _id: new ObjectId(id), at: { $gte: new Date('2024-01-01T00:00:00Z') } });
    });
  });

  describe('errors of reserved parameters', () => {
    it.each([
      ['$select=-a', '$select'],
      ['$select=', '$select'],
      ['$select=a..b', '$select'],
      ['$page=-1', '$page'],
      ['$page=1.5', '$page'],
      ['$page=1&$page=2', '$page'],
      ['$limit=0', '$limit'],
      ['$limit=x', '$limit'],
      ['$sort=', '$sort'],
      ['$sort=a&$sort=a', '$sort'],
      ['$sort=-', '$sort'],
      ['$sort=1', '$sort'],
      ['$order=up&$sort=a', '$order'],
      ['$order=desc', '$order'],
      ['$sort=a&$order=asc&$order=desc', '$order'],
      ['$sort=-a&$order=asc', '$order'],
      ['$count=2', '$count'],
      ['$populate=a%20b', '$populate'],
      ['$fill=-x', '$fill'],
      ['$search=', '$search'],
      ['$search=a&$search=b', '$search'],
      ['$$=1', '$$'],
      ['$query=nope', '$query'],
      ['$query=[1]', '$query'],
      ['$regex=x', '$regex'],
      [q(['$regex', '["a"]']), '$regex'],
      [q(['$regex', '["a","b","g"]']), '$regex'],
      [q(['$regex', '["a","b","ii"]']), '$regex'],
      [q(['$regex', '["a","(unclosed"]']), '$regex'],
      [q(['$regex', '["$a","b"]']), '$regex'],
    ])('%s -> invalid_query', (query, parameter) => {
      const error = errorOf(() => compileQuery(query));
      expect(error).toMatchObject({ status: 400, code: 'invalid_query', parameter });
      expect(error.message).toBe(error.detail);
    });

    it('rejects a $query longer than 4096 characters and a regex longer than 256', () => {
      const long = errorOf(() => compileQuery(q(['$query', `{"a":"${'x'.repeat(4096)}"}`])));
      expect(long).toMatchObject({ code: 'invalid_query', parameter: '$query' });
      const regex = errorOf(() => compileQuery(q(['$regex', `["a","${'a'.repeat(257)}"]`])));
      expect(regex).toMatchObject({ code: 'unsafe_regex', parameter: '$regex' });
      expect(filterOf(q(['$regex', `["a","${'a'.repeat(256)}"]`]))).toEqual({
        a: { $regex: 'a'.repeat(256), $options: 'i' },
      });
    });

    it.each(['$foo=1', '$=1', '$Select=a', '$where=1'])('%s -> unknown_parameter', (query) => {
      expect(errorOf(() => compileQuery(query))).toMatchObject({
        status: 400,
        code: 'unknown_parameter',
        parameter: query.split('=')[0],
      });
    });

    it.each([
      q(['$regex', '["a","(a+)+"]']),
      q(['$query', '{"a":{"$regex":"(x+)+y"}}']),
      q(['$query', '{"a":{"$regularExpression":{"pattern":"(x*)*","options":""}}}']),
      q(['$query', '{"a":{"$in":[{"$regex":"(a*)*b"}]}}']),
    ])('%s -> unsafe_regex', (query) => {
      expect(errorOf(() => compileQuery(query))).toMatchObject({ status: 400, code: 'unsafe_regex' });
    });
  });

  describe('input', () => {
    it('accepts a parsed object, stripping a trailing [] from keys', () => {
      const compiled = compileQuery({ 'tags:in[]': ['a', 'b'], $limit: '2', name: 'x' });
      expect(compiled.filter).toEqual({ tags: { $in: ['a', 'b'] }, name: 'x' });
      expect(compiled.limit).toBe(2);
    });

    it.each([
      [{ name: { $ne: 'x' } }],
      [{ name: 1 }],
      [{ name: ['a', { b: 1 }] }],
      [{ name: null }],
      [{ name: Array.from({ length: 101 }, () => 'x') }],
    ])('rejects hostile values %j', (input) => {
      expect(errorOf(() => compileQuery(input as Record<string, unknown>))).toMatchObject({
        code: 'invalid_query',
        parameter: 'name',
      });
    });

    it('rejects input that is neither a string nor a plain object', () => {
      for (const input of [null, 1, [], new Date()]) {
        expect(errorOf(() => compileQuery(input as never)).code).toBe('invalid_query');
      }
    });

    it('rejects more than 1000 parameters or 100 values', () => {
      const many = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join('&');
      expect(errorOf(() => compileQuery(many))).toMatchObject({ code: 'invalid_query', parameter: '' });
      const values = Array.from({ length: 101 }, () => 'a:in[]=1').join('&');
      expect(errorOf(() => compileQuery(values)).code).toBe('invalid_query');
    });

    it('never mutates the object it is given', () => {
      const input = { $query: '{"a":{"$in":[1,2]}}', 'b:in': ['1', '2'], $sort: ['-a', 'b'] };
      const copy = structuredClone(input);
      const compiled = compileQuery(input);
      expect(input).toEqual(copy);
      (compiled.filter.b as { $in: unknown[] }).$in.push('z');
      expect(input).toEqual(copy);
    });

    it('keeps __proto__ and constructor away from prototypes', () => {
      const input = JSON.parse('{"__proto__": "x", "ok": "1"}') as Record<string, unknown>;
      expect(errorOf(() => compileQuery(input)).parameter).toBe('__proto__');
      expect(compileQuery('__proto__=1&toString=2').filter).toEqual({ toString: { $in: ['2', 2] } });
      expect(({} as Record<string, unknown>).toString).toBe(Object.prototype.toString);
    });
  });

  describe('options', () => {
    it.each([{ defaultLimit: 0 }, { maxLimit: 1.5 }, { defaultLimit: 50, maxLimit: 10 }])(
      'rejects %j with an OptionError naming the option',
      (options) => {
        expect(() => compileQuery('', options)).toThrow(OptionError);
        expect(() => compileQuery('', options)).toThrow(/option "(defaultLimit|maxLimit)"/);
      },
    );
  });

  describe('QueryError', () => {
    it('carries status, code, detail, parameter and is an Error', () => {
      const error = errorOf(() => compileQuery('$query={"$where":"1"}'));
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(QueryError);
      expect(error).toMatchObject({
        name: 'QueryError',
        status: 400,
        code: 'forbidden_operator',
        parameter: '$query',
      });
      expect(error.detail).toContain('$where');
    });

    it('isQueryError recognises a copy from another build and nothing else', () => {
      // A copy: another build's class, branded as a StoreError by @store/common's shared symbol.
      class CopiedQueryError extends Error {
        override name = 'QueryError';
        [brand: symbol]: unknown;
        constructor(readonly code: string) {
          super('x');
          this[Symbol.for('@store/common.StoreError')] = true;
        }
      }
      expect(isQueryError(new CopiedQueryError('invalid_query'))).toBe(true);
      expect(isQueryError(new CopiedQueryError('nope'))).toBe(false);
      expect(isQueryError({ name: 'QueryError', status: 400, code: 'invalid_query', message: 'x' })).toBe(
        false,
      );
      expect(isQueryError(new Error('x'))).toBe(false);
      expect(isQueryError(null)).toBe(false);
    });
  });
});
