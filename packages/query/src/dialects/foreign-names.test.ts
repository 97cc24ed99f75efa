import { describe, expect, it } from 'vitest';
import { errorOf } from '../query-error.test-support';
import { failForeignParameter, foreignParameters, shapesPage } from './foreign-names';

describe('foreignParameters', () => {
  it.each([
    '_sort',
    '_order',
    '_start',
    '_end',
    '_limit',
    '_page',
    '_per_page',
    '_embed',
    '_expand',
    'q',
    'range',
    'sort',
    'filter',
    'embed',
    'views_gte',
    'views_lte',
    'views_ne',
    'title_like',
  ])('finds %s', (name) => {
    expect(foreignParameters(`a=1&${name}=x`)).toEqual([name]);
  });

  it('finds encoded and bracketed names, each once', () => {
    expect(foreignParameters('%5Fsort=a&_sort=b&tags_ne[]=x')).toEqual(['_sort', 'tags_ne']);
  });

  it.each([
    'title=a&$sort=-views&views:gte=3',
    'sort:eq=a&q:eq=b&views_gte:eq=1',
    'sorted=1&query=2&_id=3&user_id=4&filtered=5',
    '$$q=1&$regex=["a","b"]',
  ])('finds none in %s', (query) => {
    expect(foreignParameters(query)).toEqual([]);
  });
});

describe('failForeignParameter', () => {
  it('answers 400 foreign_dialect_parameter naming the option and the store own form', () => {
    const error = errorOf(() => failForeignParameter('_page'));
    expect(error).toMatchObject({ status: 400, code: 'foreign_dialect_parameter', parameter: '_page' });
    expect(error.message).toContain('dialects: { jsonServer: true }');
    expect(error.message).toContain('$page=<n>');
    expect(error.message).toContain('_page:eq=<value>');
  });

  it('names both options for a parameter both dialects read, and the operator for a suffix', () => {
    const error = errorOf(() => failForeignParameter('views_gte'));
    expect(error.message).toContain('jsonServer: true');
    expect(error.message).toContain('simpleRest: true');
    expect(error.message).toContain('views:gte=<value>');
  });

  it('names simple-rest for range', () => {
    expect(errorOf(() => failForeignParameter('range')).message).toContain('simpleRest: true');
  });
});

describe('shapesPage', () => {
  it.each([
    '_sort',
    '_order',
    '_start',
    '_end',
    '_limit',
    '_page',
    '_per_page',
    '_embed',
    '_expand',
    'range',
    'sort',
    'embed',
  ])('says %s shapes a page (a bulk change refuses it)', (name) => {
    expect(shapesPage(name)).toBe(true);
  });

  it.each(['q', 'filter', 'views_gte', 'title_like', 'toString', '$sort', 'title'])(
    'says %s does not (a filter, or not a foreign name)',
    (name) => {
      expect(shapesPage(name)).toBe(false);
    },
  );
});
