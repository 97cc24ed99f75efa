import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import { compileQuery } from '../src/index';
import { POSTS } from './fixtures';

/**
 * The compiled filter with its regexes in JavaScript syntax, for mingo's RegExp: the compiler
 * writes the end of the text as `\z` (PCRE and RE2 syntax), which JavaScript spells `$`.
 */
function inJavaScript(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\\z', '$');
  if (value instanceof RegExp) return new RegExp(inJavaScript(value.source) as string, value.flags);
  if (Array.isArray(value)) return value.map(inJavaScript);
  if (
    value === null ||
    typeof value !== 'object' ||
    ![Object.prototype, null].includes(Object.getPrototypeOf(value))
  )
    return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inJavaScript(v)]));
}

/** Runs a compiled query over the fixtures the way a collection.find() would. */
function run(query: string): unknown[] {
  const c = compileQuery(query);
  let cursor = new Query(inJavaScript(c.filter) as Record<string, unknown>).find(POSTS, c.projection);
  if (c.sort) cursor = cursor.sort(c.sort);
  return cursor.skip(c.skip).limit(c.limit).all();
}
const ids = (query: string) => run(query).map((d) => (d as { _id: number })._id);
const enc = encodeURIComponent;

describe('compiled queries select the right documents (mingo)', () => {
  it.each([
    ['title=World%20news', [5]],
    ['views=10', [1, 2]],
    ['views:number=10', [1]],
    ['published=true', [1, 2, 5]],
    ['published:bool=true', [1, 5]],
    ['author.name=Ann', [1, 3]],
    ['views=5&views=25', [3, 4, 5]],
    ['views:gt=10', [3, 5]],
    ['views:gte=10', [1, 3, 5]],
    ['views:lt=10', [4]],
    ['views:gt=5&views:lt=25', [1]],
    ['views:ne=10', [3, 4, 5]],
    ['views:ne:number=10', [2, 3, 4, 5]],
    ['tags:in[]=c&tags:in[]=b', [1, 2, 4]],
    ['tags:nin[]=a', [2, 3]],
    ['tags=a', [1, 4, 5]],
    ['tags:size=0', [3]],
    ['score:exists=true', [5]],
    ['published:exists=false', [4]],
    ['title:contains=WORLD', [1, 5]],
    ['title:contains=a.b', [4]],
    ['title:contains=(for', [3]],
    ['title:startsWith=hello', [1, 2]],
    ['title:endsWith=NOW)', [3]],
    ['at:gte:date=2024-01-01', [1, 2, 3]],
    ['at:lt:date=1704067200000', [4]],
    ['ref:id=5f1d7f3e9d1b2c3a4b5c6d7e', [1]],
    [`$regex=${enc('["title","^h.*o a","i"]')}`, [2]],
    [`$query=${enc('{"$or":[{"views":{"$gt":20}},{"tags":{"$all":["a","b"]}}]}')}`, [1, 3, 5]],
    [`$query=${enc('{"views":{"$gt":20}}')}&title:contains=news`, [5]],
    [`$query=${enc('{"views":25}')}&views:lt=30&views=25`, [3, 5]],
    [`$query=${enc('{"at":{"$lt":{"$date":"2024-01-01T00:00:00Z"}}}')}`, [4]],
    [`$query=${enc('{"title":{"$regex":"^world","$options":"i"}}')}`, [5]],
    [`$query=${enc('{"tags":{"$elemMatch":{"$in":["d"]}}}')}`, [4]],
    ['$$user=ann', [1, 2, 3, 4, 5]],
  ])('%s -> %j', (query, expected) => {
    expect(ids(query)).toEqual(expected);
  });

  it('sorts with $sort / $order and breaks ties on _id', () => {
    // MongoDB orders numbers before strings, so the string '10' of post 2 sorts last ascending.
    expect(ids('$sort=-views')).toEqual([2, 3, 5, 1, 4]);
    expect(ids('$sort=views&$order=desc')).toEqual([2, 3, 5, 1, 4]);
    expect(ids('$sort=views')).toEqual([4, 1, 3, 5, 2]);
    expect(ids('$sort=author.name&$sort=views&$order[]=asc&$order[]=desc')).toEqual([5, 3, 1, 2, 4]);
  });

  it('pages without overlap or gaps', () => {
    const pages = [0, 1, 2].map((p) => ids(`$sort=views&$limit=2&$page=${p}`));
    expect(pages).toEqual([[4, 1], [3, 5], [2]]);
  });

  it('projects only the selected fields', () => {
    expect(run('$select=title&$limit=1')).toEqual([{ title: 'Hello World' }]);
    expect(run('$select=_id&$select=author.name&$limit=2')).toEqual([
      { _id: 1, author: { name: 'Ann' } },
      { _id: 2, author: { name: 'Bob' } },
    ]);
  });

  it('counts the whole filter', () => {
    const c = compileQuery('views:gte=10&$count=1&$limit=1');
    expect(c.count).toBe(true);
    expect(new Query(c.filter).find(POSTS).all().length).toBe(3);
  });
});
