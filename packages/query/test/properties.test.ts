import fc from 'fast-check';
import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import { compileQuery, isQueryError } from '../src/index';
import { POSTS } from './fixtures';

const KEYS = [
  ...[
    'f',
    'title',
    'a.b',
    'views',
    'tags',
    'author.name',
    'x:gt',
    'x:lte',
    'views:ne',
    'y:in',
    'y:in[]',
    'y:nin[]',
  ],
  ...['t:contains', 't:startsWith', 't:endsWith', 'd:date', 'd:gt:date', 'n:number', 'n:in:number', 'b:bool'],
  ...['i:id', 'q:exists', 's:size', 'x:eq', 'x:gt:id', 'x:geo:near', 'x:bogus', '$limit', '$page', '$sort'],
  ...[
    '$order',
    '$order[]',
    '$select',
    '$select[]',
    '$query',
    '$regex',
    '$count',
    '$populate',
    '$fill',
    '$search',
  ],
  ...['$$flag', '$$', '$junk', '$', 'a[$ne]', 'a[b]', 'a..b', 'a.$b', '__proto__', 'constructor', ':', ''],
];

const RAW_KEYS = [
  ...[
    'a',
    'b.c',
    'views',
    'tags',
    'title',
    '$gt',
    '$gte',
    '$lt',
    '$in',
    '$nin',
    '$or',
    '$and',
    '$nor',
    '$not',
  ],
  ...[
    '$regex',
    '$options',
    '$where',
    '$expr',
    '$elemMatch',
    '$size',
    '$exists',
    '$type',
    '$mod',
    '$all',
    '$ne',
  ],
  ...['$eq', '$function', '$oid', '$date', '$numberLong', '__proto__', ''],
];

/** JSON documents built from query keys and operators, valid or not. */
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: -3, max: 30 }),
    fc.constantFrom('a', 'b', '10', '(a+)+', '^hello', 'i', 'imsx', 'string', '2024-01-01T00:00:00Z', 'g'),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...RAW_KEYS), tie('json'), { maxKeys: 3 }),
  ),
}));

const FIELDS = ['a', 'b.c', 'views', 'tags', 'title', '$or', '$and', '$where'];
const OPERATORS = RAW_KEYS.filter((k) => k.startsWith('$'));
/** A `$query` candidate shaped like real ones: fields at the top, operator objects below. */
const RAW_DOC = fc.dictionary(
  fc.constantFrom(...FIELDS),
  fc.oneof(json, fc.dictionary(fc.constantFrom(...OPERATORS), json, { minKeys: 1, maxKeys: 2 })),
  { minKeys: 1, maxKeys: 3 },
);

const VALUES = fc.oneof(
  fc.constantFrom(
    '',
    '1',
    '0',
    '-2',
    '10',
    '25',
    '1.5',
    'true',
    'false',
    'x',
    'asc',
    'desc',
    '-views',
    'a,b',
  ),
  fc.constantFrom(
    '2024-01-01',
    '5f1d7f3e9d1b2c3a4b5c6d7e',
    '[1,2]',
    '[1,2,3,4]',
    '["title","^h","i"]',
    'posts',
  ),
  fc.string({ maxLength: 12 }),
  json.map((v) => JSON.stringify(v) ?? ''),
  RAW_DOC.map((v) => JSON.stringify(v)),
);

const PAIR = fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })), VALUES, fc.boolean());

/** A query string: mostly encoded pairs, sometimes raw text straight into qs. */
const QUERY_STRING = fc
  .array(PAIR, { maxLength: 8 })
  .map((pairs) =>
    pairs
      .map(([k, v, raw]) => (raw ? `${k}=${v}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`))
      .join('&'),
  );

function compiles(doc: unknown): boolean {
  try {
    compileQuery(`$query=${encodeURIComponent(JSON.stringify(doc))}`);
    return true;
  } catch {
    return false;
  }
}

const GEO = /\$(geo|near)/;

function runOnFixtures(query: string | Record<string, unknown>): void {
  let compiled: ReturnType<typeof compileQuery>;
  try {
    compiled = compileQuery(query);
  } catch (error) {
    if (isQueryError(error)) {
      expect(error.status).toBe(400);
      return;
    }
    throw error;
  }
  if (GEO.test(JSON.stringify(compiled.filter))) return; // mingo has no geo operators
  let cursor = new Query(compiled.filter).find(POSTS, compiled.projection);
  if (compiled.sort) cursor = cursor.sort(compiled.sort);
  cursor.skip(compiled.skip).limit(compiled.limit).all();
  expect(compiled.limit).toBeGreaterThanOrEqual(1);
  expect(compiled.limit).toBeLessThanOrEqual(1000);
}

describe('compileQuery on random input', () => {
  it('returns a query mingo runs, or throws a QueryError; nothing else', () => {
    fc.assert(
      fc.property(QUERY_STRING, (query) => runOnFixtures(query)),
      { numRuns: 3000 },
    );
  });

  it('does the same for random $query documents', () => {
    let accepted = 0;
    fc.assert(
      fc.property(RAW_DOC, (doc) => {
        if (compiles(doc)) accepted++;
        runOnFixtures(`$query=${encodeURIComponent(JSON.stringify(doc))}`);
      }),
      { numRuns: 3000 },
    );
    // The grammar must reach the valid side often enough for the property to mean something.
    expect(accepted).toBeGreaterThan(300);
  });

  it('never mutates a passed object, and survives hostile values', () => {
    const value = fc.oneof(VALUES, fc.array(VALUES, { maxLength: 3 }), json);
    const input = fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })), value, {
      maxKeys: 6,
    });
    fc.assert(
      fc.property(input, (object) => {
        const before = structuredClone(object);
        runOnFixtures(object);
        expect(object).toEqual(before);
      }),
      { numRuns: 2000 },
    );
  });
});
