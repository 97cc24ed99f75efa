import { describe, expect, it } from 'vitest';
import { compileQuery, isQueryError } from './index';
import { RAW_OPERATORS } from './raw-query-operators';
import { ALLOWED_OPERATORS } from './raw-query-walk';

const rawFilter = (json: string) => compileQuery(`$query=${encodeURIComponent(json)}`).filter;

function codeOf(json: string): string | undefined {
  try {
    rawFilter(json);
    return undefined;
  } catch (error) {
    if (isQueryError(error)) return error.code;
    throw error;
  }
}

const nest = (levels: number) => `${'{"$and":['.repeat(levels)}{"a":1}${']}'.repeat(levels)}`;

describe('$query allow-list', () => {
  it('allows exactly the listed operators, no more and no fewer', () => {
    expect([...ALLOWED_OPERATORS].sort()).toEqual(
      [
        ...[
          '$eq',
          '$ne',
          '$gt',
          '$gte',
          '$lt',
          '$lte',
          '$in',
          '$nin',
          '$and',
          '$or',
          '$nor',
          '$not',
          '$exists',
        ],
        ...[
          '$type',
          '$size',
          '$all',
          '$elemMatch',
          '$regex',
          '$options',
          '$mod',
          '$geoWithin',
          '$geoIntersects',
        ],
        ...[
          '$near',
          '$nearSphere',
          '$geometry',
          '$box',
          '$polygon',
          '$center',
          '$centerSphere',
          '$maxDistance',
        ],
        '$minDistance',
      ].sort(),
    );
    for (const op of Object.keys(RAW_OPERATORS)) expect(ALLOWED_OPERATORS.has(op)).toBe(true);
  });

  it.each([
    '{"$where":"1"}',
    '{"$expr":{"$eq":["$a","$b"]}}',
    '{"a":{"$function":{}}}',
    '{"$accumulator":{}}',
    '{"$text":{"$search":"x"}}',
    '{"$comment":"x"}',
    '{"a":{"$jsonSchema":{}}}',
    '{"$or":[{"$where":"sleep(1)"}]}',
    '{"a":{"$elemMatch":{"$where":"1"}}}',
    '{"a":{"$not":{"$expr":1}}}',
    '{"a":{"$eq":{"$where":"1"}}}',
    '{"a":{"$in":[{"b":{"$where":"1"}}]}}',
    '{"a":{"$geoWithin":{"$where":"1"}}}',
  ])('rejects %s with forbidden_operator', (json) => {
    expect(codeOf(json)).toBe('forbidden_operator');
  });

  it.each([
    ['{"a":{"$gt":1,"$lt":5}}', { a: { $gt: 1, $lt: 5 } }],
    ['{"$or":[{"a":1},{"b":{"$in":[1,2]}}]}', { $or: [{ a: 1 }, { b: { $in: [1, 2] } }] }],
    ['{"$nor":[{"a":{"$exists":true}}]}', { $nor: [{ a: { $exists: true } }] }],
    ['{"a":{"$not":{"$size":2}}}', { a: { $not: { $size: 2 } } }],
    ['{"a":{"$elemMatch":{"b":1,"c":{"$gt":2}}}}', { a: { $elemMatch: { b: 1, c: { $gt: 2 } } } }],
    ['{"a":{"$elemMatch":{"$gte":80,"$lt":85}}}', { a: { $elemMatch: { $gte: 80, $lt: 85 } } }],
    ['{"a":{"$all":["x","y"]}}', { a: { $all: ['x', 'y'] } }],
    ['{"a":{"$mod":[4,0]}}', { a: { $mod: [4, 0] } }],
    ['{"a":{"$type":["string","int"]}}', { a: { $type: ['string', 'int'] } }],
    ['{"a":{"b":1}}', { a: { b: 1 } }],
    ['{"a":{"$regex":"^x","$options":"i"}}', { a: /^x/i }],
    ['{"a":{"$regex":"^x","$ne":"xy"}}', { a: /^x/ }],
    ['{"a":{"$not":{"$regex":"x.y","$options":"s"}}}', { a: { $not: /x[\s\S]y/ } }],
    ['{"a":{"$ne":null}}', { a: { $ne: null } }],
    [
      '{"a.b":{"$nearSphere":{"$geometry":{"type":"Point","coordinates":[1,2]},"$maxDistance":5}}}',
      {
        'a.b': { $nearSphere: { $geometry: { type: 'Point', coordinates: [1, 2] }, $maxDistance: 5 } },
      },
    ],
    [
      '{"p":{"$nearSphere":[1,2],"$minDistance":0.1,"$maxDistance":0.5}}',
      {
        p: {
          $nearSphere: {
            $geometry: { type: 'Point', coordinates: [1, 2] },
            $minDistance: 0.1 * 6_378_100,
            $maxDistance: 0.5 * 6_378_100,
          },
        },
      },
    ],
    [
      '{"p":{"$geoWithin":{"$centerSphere":[[1,2],0.1]}}}',
      { p: { $geoWithin: { $centerSphere: [[1, 2], 0.1] } } },
    ],
    [
      '{"p":{"$geoWithin":{"$box":[[0,0],[1,1]]}}}',
      {
        p: {
          $geoWithin: {
            $box: [
              [0, 0],
              [1, 1],
            ],
          },
        },
      },
    ],
    [
      '{"p":{"$geoIntersects":{"$geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}}}',
      {
        p: {
          $geoIntersects: {
            $geometry: {
              type: 'LineString',
              coordinates: [
                [0, 0],
                [1, 1],
              ],
            },
          },
        },
      },
    ],
  ])('accepts %s', (json, filter) => {
    expect(rawFilter(json)).toEqual(filter);
  });

  it.each([
    ['{"a":{"$gt":1,"b":2}}', 'mixes operators and fields'],
    ['{"$and":[]}', 'empty $and'],
    ['{"$and":{"a":1}}', '$and not an array'],
    ['{"$gt":1}', 'field operator at top level'],
    ['{"a":{"$and":[{"b":1}]}}', 'logical operator on a field'],
    ['{"a":{"$in":5}}', '$in not an array'],
    ['{"a":{"$size":-1}}', 'negative $size'],
    ['{"a":{"$mod":[0,1]}}', 'zero divisor'],
    ['{"a":{"$type":"bogus"}}', 'unknown type'],
    ['{"a":{"$exists":"yes"}}', '$exists string'],
    ['{"a":{"$options":"i"}}', '$options without $regex'],
    ['{"a":{"$regex":5}}', 'non-string $regex'],
    ['{"a":{"$regex":"x","$options":"g"}}', 'bad flags'],
    ['{"a":{"$ne":{"$regex":"x"}}}', 'regex in $ne'],
    ['{"a":{"$not":5}}', '$not scalar'],
    ['{"a":{"$elemMatch":5}}', '$elemMatch scalar'],
    ['{"..":1}', 'empty segment'],
    ['{"__proto__":{"a":1}}', '__proto__ field'],
    ['{"a":{"$code":"function(){}"}}', 'JavaScript code value'],
    ['{"$or":[{"p":{"$nearSphere":[1,2]}}]}', '$near inside $or'],
    ['{"p":{"$nearSphere":[1,2]},"q":{"$nearSphere":[1,2]}}', 'two $near'],
    ['{"p":{"$maxDistance":3}}', '$maxDistance alone'],
    ['{"p":{"$near":[1,2]}}', 'legacy $near (needs a 2d index)'],
    ['{"p":{"$nearSphere":[200,2]}}', 'legacy $nearSphere out of range'],
    [
      '{"p":{"$nearSphere":{"$geometry":{"type":"Point","coordinates":[1,2]}},"$maxDistance":3}}',
      '$maxDistance beside a GeoJSON $nearSphere',
    ],
    ['{"p":{"$nearSphere":[1,2],"$exists":true}}', 'another operator beside $nearSphere'],
    ['{"p":{"$geoWithin":{"$geometry":{"type":"Point","coordinates":[1,2]}}}}', '$geoWithin a point'],
    [
      '{"p":{"$geoWithin":{"$geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[0,1],[0,2]]]}}}}',
      'open ring',
    ],
    [
      '{"p":{"$geoIntersects":{"$geometry":{"type":"Point","coordinates":[200,0]}}}}',
      'longitude out of range',
    ],
    ['[{"a":1}]', 'an array'],
    ['"a"', 'a string'],
    [nest(8), 'nested too deep'],
  ])('rejects %s (%s) with invalid_query', (json) => {
    expect(codeOf(json)).toBe('invalid_query');
  });

  it('accepts nesting within the depth bound', () => {
    expect(codeOf(nest(3))).toBeUndefined();
  });

  it('rejects geo:near together with a $query $near', () => {
    const query = `p:geo:near=[1,2]&$query=${encodeURIComponent('{"q":{"$nearSphere":[1,2]}}')}`;
    expect(() => compileQuery(query)).toThrow(/only one/);
  });
});
