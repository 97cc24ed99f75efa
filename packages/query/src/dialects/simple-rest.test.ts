import { describe, expect, it } from 'vitest';
import { compileQuery } from '../index';
import { errorOf } from '../query-error.test-support';
import { translateDialects } from './translate';

const SIMPLE_REST = { jsonServer: false, simpleRest: true };
const read = (query: string, range?: string) => translateDialects(query, SIMPLE_REST, { range });
const param = (key: string, value: unknown) => `${key}=${encodeURIComponent(JSON.stringify(value))}`;
const filterOf = (value: unknown) => compileQuery(read(param('filter', value)).query).filter;

describe('translateDialects (simple-rest)', () => {
  it.each([
    [{ title: 'Hello' }, { title: 'Hello' }],
    [{ views: 5 }, { views: { $in: ['5', 5] } }],
    [{ published: true }, { published: { $in: ['true', true] } }],
    [{ id: [1, 'b'] }, { id: { $in: ['1', 1, 'b'] } }],
    [{ id: [] }, { id: { $in: [] } }],
    [{ author: null }, { author: null }],
    [{ author: { name: 'Ann' } }, { 'author.name': 'Ann' }],
    [{ views_gte: 10 }, { views: { $gte: 10 } }],
    [{ views_lte: 10, views_gt: 1 }, { views: { $lte: 10, $gt: 1 } }],
    [{ title_like: 'hel' }, { title: { $regex: 'hel', $options: 'i' } }],
  ])('reads filter %j as %j', (filter, compiled) => {
    expect(filterOf(filter)).toEqual(compiled);
  });

  it('reads q inside filter as the search text', () => {
    const dialect = read(param('filter', { q: 'lorem', views: 1 }));
    expect(dialect.search).toBe('lorem');
    expect(compileQuery(dialect.query).filter).toEqual({ views: { $in: ['1', 1] } });
  });

  it('reads range as an inclusive slice, and the Range header likewise', () => {
    const fromParameter = read(`${param('range', [10, 19])}&${param('sort', ['title', 'DESC'])}`);
    expect(fromParameter.skip).toBe(10);
    expect(compileQuery(fromParameter.query)).toMatchObject({ limit: 10, sort: { title: -1, _id: 1 } });
    expect(fromParameter.paging).toEqual({ keys: ['range'], style: 'store' });
    const fromHeader = read('', 'posts=5-9');
    expect(fromHeader.skip).toBe(5);
    expect(compileQuery(fromHeader.query).limit).toBe(5);
  });

  it('prefers the range parameter to the Range header react-admin sends with it, and ignores byte ranges', () => {
    expect(read(param('range', [0, 4]), 'posts=10-14').skip).toBe(0);
    expect(read('', 'bytes=0-99').skip).toBeUndefined();
  });

  it('reads sort in either case', () => {
    expect(compileQuery(read(param('sort', ['views', 'asc'])).query).sort).toEqual({ views: 1, _id: 1 });
  });

  it('reads embed as a JSON array or a name', () => {
    expect(read(param('embed', ['author', 'comments'])).embed).toEqual(['author', 'comments']);
    expect(read('embed=author').embed).toEqual(['author']);
  });

  it("reads Refine's json-server-style parameters as well", () => {
    const dialect = read('_start=10&_end=20&_sort=title&_order=desc&views_ne=3&title_like=a&q=x');
    expect(dialect.skip).toBe(10);
    expect(dialect.search).toBe('x');
    const query = compileQuery(dialect.query);
    expect(query).toMatchObject({ limit: 10, sort: { title: -1, _id: 1 } });
    expect(query.filter).toEqual({ views: { $nin: ['3', 3] }, title: { $regex: 'a', $options: 'i' } });
  });

  it('leaves json-server-only parameters to the store own dialect', () => {
    expect(read('_page=2').query).toBe('_page=2');
  });

  it.each([
    [param('filter', [1]), 'filter'],
    ['filter=%7Bnot-json', 'filter'],
    [param('filter', { a: [{ b: 1 }] }), 'filter'],
    [param('filter', { views_gte: null }), 'filter'],
    [param('filter', { title_like: '(a+)+' }), 'filter'],
    [param('filter', { 'a..b': 1 }), 'filter'],
    [param('range', [5, 1]), 'range'],
    [param('range', [0]), 'range'],
    [param('range', [-1, 3]), 'range'],
    [param('range', [0, 1.5]), 'range'],
    [param('sort', ['title']), 'sort'],
    [param('sort', ['title', 'UP']), 'sort'],
    [param('sort', 'title'), 'sort'],
    [`${param('sort', ['a', 'ASC'])}&_sort=b`, '_sort'],
    [`${param('range', [0, 9])}&$limit=10`, '$limit'],
    [`${param('range', [0, 9])}&_start=0`, 'range'],
    [param('embed', [1]), 'embed'],
  ])('refuses %s with a 400 naming %s', (query, parameter) => {
    const error = errorOf(() => read(query));
    expect(error.status).toBe(400);
    expect(error.parameter).toBe(parameter);
  });

  it.each(['posts=9-1', 'posts=a-b', 'posts'])('refuses the Range header %s', (header) => {
    expect(errorOf(() => read('', header)).parameter).toBe('Range');
  });
});
