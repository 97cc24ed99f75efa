import { describe, expect, it } from 'vitest';
import { compileQuery } from '../index';
import { errorOf } from '../query-error.test-support';
import { translateDialects } from './translate';

const JSON_SERVER = { jsonServer: true, simpleRest: false };
const read = (query: string) => translateDialects(query, JSON_SERVER);
const compiled = (query: string) => compileQuery(read(query).query);

describe('translateDialects (json-server)', () => {
  it.each([
    ['_sort=views&_order=desc', { views: -1, _id: 1 }],
    ['_sort=views&_order=DESC', { views: -1, _id: 1 }],
    ['_sort=views,title&_order=desc,asc', { views: -1, title: 1, _id: 1 }],
    ['_sort=-views,title', { views: -1, title: 1, _id: 1 }],
    ['_sort=-views&_order=desc', { views: -1, _id: 1 }],
    ['_sort=views', { views: 1, _id: 1 }],
    ['_sort=a,b&_order=desc', { a: -1, b: 1, _id: 1 }],
  ])('reads %s as the store sort %j', (query, sort) => {
    expect(compiled(query).sort).toEqual(sort);
  });

  it.each([
    ['_start=5&_end=15', 5, 10, '_limit'],
    ['_start=5&_limit=3', 5, 3, '_limit'],
    ['_end=4', 0, 4, '_limit'],
    ['_limit=7', 0, 7, '_limit'],
    ['_page=3&_limit=5', 10, 5, '_limit'],
    ['_page=2', 10, 10, '_limit'],
    ['_page=2&_per_page=4', 4, 4, '_per_page'],
    ['_per_page=4', 0, 4, '_per_page'],
  ])('reads the paging of %s as skip %i and limit %i', (query, skip, limit, style) => {
    const dialect = read(query);
    expect(dialect.skip).toBe(skip);
    expect(compileQuery(dialect.query).limit).toBe(limit);
    expect(dialect.paging.style).toBe(style);
    expect(dialect.whole).toBe(false);
  });

  it('answers v1 _per_page with the envelope, and 0.17 _page/_limit with an array', () => {
    expect(read('_page=1&_per_page=5').envelope).toBe(true);
    expect(read('_page=1&_limit=5').envelope).toBe(false);
  });

  it('reads a list without any paging as the whole list, and _start alone as the rest of it', () => {
    expect(read('title=a')).toMatchObject({ whole: true, skip: undefined });
    expect(read('_start=4')).toMatchObject({ whole: true, skip: 4 });
    expect(read('$limit=3').whole).toBe(false);
  });

  it('lists the paging parameters sent, for the Link URLs to replace', () => {
    expect(read('_page=2&_limit=5&title=x').paging.keys).toEqual(['_limit', '_page']);
  });

  it.each([
    ['views_gte=10', { views: { $gte: 10 } }],
    ['views_lte=10', { views: { $lte: 10 } }],
    ['views_gt=10', { views: { $gt: 10 } }],
    ['views_lt=10', { views: { $lt: 10 } }],
    ['views_ne=10', { views: { $nin: ['10', 10] } }],
    ['views:gte=10', { views: { $gte: 10 } }],
    ['views:lt=10', { views: { $lt: 10 } }],
    ['views:ne=10', { views: { $nin: ['10', 10] } }],
    ['views:eq=10', { views: { $in: ['10', 10] } }],
    ['author.age_gte=3', { 'author.age': { $gte: 3 } }],
  ])('reads the comparison %s as %j', (query, filter) => {
    expect(compiled(query).filter).toEqual(filter);
  });

  it('reads a repeated field as any of its values', () => {
    expect(compiled('id=2&id=5').filter).toEqual({ id: { $in: ['2', 2, '5', 5] } });
  });

  it('reads _like as a case-insensitive regex under the store regex rules', () => {
    expect(compiled('title_like=^hel%2Bo').filter).toEqual({ title: { $regex: '^hel+o', $options: 'i' } });
    const unsafe = errorOf(() => read('title_like=(a%2B)%2B'));
    expect(unsafe.code).toBe('unsafe_regex');
    expect(unsafe.parameter).toBe('title_like');
    expect(errorOf(() => read('title_like=(')).parameter).toBe('title_like');
  });

  it('reads q as the search text, left out when empty', () => {
    expect(read('q=Hello%20World').search).toBe('Hello World');
    expect(read('q=').search).toBeUndefined();
  });

  it('reads _embed and _expand as names, comma lists and repeats alike', () => {
    const dialect = read('_embed=comments,tags&_embed=likes&_expand=user');
    expect(dialect.embed).toEqual(['comments', 'tags', 'likes']);
    expect(dialect.expand).toEqual(['user']);
  });

  it('passes the store own parameters through as sent', () => {
    const dialect = read('$select=title&$or[0][a]=1&$or[1][b]=2&_sort=title');
    const query = compileQuery(dialect.query);
    expect(query.projection).toEqual({ title: 1, _id: 0 });
    expect(query.filter).toEqual({ $or: [{ a: { $in: ['1', 1] } }, { b: { $in: ['2', 2] } }] });
    expect(query.sort).toEqual({ title: 1, _id: 1 });
  });

  it.each([
    ['_page=0', '_page'],
    ['_page=x', '_page'],
    ['_limit=0', '_limit'],
    ['_start=-1', '_start'],
    ['_start=5&_end=5', '_end'],
    ['_start=1&_end=3&_limit=2', '_end'],
    ['_page=1&_start=3', '_page'],
    ['_page=1&_per_page=3&_limit=3', '_per_page'],
    ['_order=desc', '_order'],
    ['_sort=a&_order=desc,asc', '_order'],
    ['_sort=-a&_order=asc', '_order'],
    ['_sort=a&_sort=b&_order=up', '_order'],
    ['_sort=a..b', '_sort'],
    ['_embed=no/way', '_embed'],
    ['_page=1&_page=2', '_page'],
    ['q=a&q=b', 'q'],
    ['$limit=5&_limit=5', '$limit'],
    ['$page=1&_page=2', '$page'],
  ])('refuses %s with a 400 naming %s', (query, parameter) => {
    const error = errorOf(() => read(query));
    expect(error.status).toBe(400);
    expect(error.parameter).toBe(parameter);
  });

  it('leaves every parameter as sent when no dialect is on', () => {
    const dialect = translateDialects('_sort=a&views_gte=1', { jsonServer: false, simpleRest: false });
    expect(dialect.query).toBe('_sort=a&views_gte=1');
  });
});
