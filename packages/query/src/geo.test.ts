import { describe, expect, it } from 'vitest';
import { compileQuery, isQueryError } from './index';

const square = [
  [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
    [0, 0],
  ],
];
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

describe('geo filters', () => {
  it.each([
    ['ins:polygon', '$geoIntersects', 'Polygon', square],
    ['ins:multipolygon', '$geoIntersects', 'MultiPolygon', [square]],
    ['win:polygon', '$geoWithin', 'Polygon', square],
    ['win:multipolygon', '$geoWithin', 'MultiPolygon', [square, square]],
  ])('loc:geo:%s -> %s %s', (form, operator, type, coordinates) => {
    const compiled = compileQuery(`loc:geo:${form}=${enc(coordinates)}`);
    expect(compiled.filter).toEqual({ loc: { [operator]: { $geometry: { type, coordinates } } } });
    expect(compiled.sort).toEqual({ _id: 1 });
  });

  it('geo:near -> $nearSphere in metres, nearest first (no default sort)', () => {
    const compiled = compileQuery(`loc:geo:near=${enc([2.35, 48.85, 10, 5000])}`);
    expect(compiled.filter).toEqual({
      loc: {
        $nearSphere: {
          $geometry: { type: 'Point', coordinates: [2.35, 48.85] },
          $minDistance: 10,
          $maxDistance: 5000,
        },
      },
    });
    expect(compiled.sort).toBeUndefined();
  });

  it('geo:near keeps an explicit $sort, and takes optional distances', () => {
    expect(compileQuery(`loc:geo:near=${enc([1, 2])}&$sort=name`).sort).toEqual({ name: 1, _id: 1 });
    expect(compileQuery(`loc:geo:near=${enc([1, 2, null, 100])}`).filter).toEqual({
      loc: { $nearSphere: { $geometry: { type: 'Point', coordinates: [1, 2] }, $maxDistance: 100 } },
    });
  });

  it.each([
    ['loc:geo:ins:polygon', 'not json'],
    [
      'loc:geo:ins:polygon',
      [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
        ],
      ],
    ],
    [
      'loc:geo:ins:polygon',
      [
        [
          [0, 0],
          [1, 0],
          [0, 0],
        ],
      ],
    ],
    [
      'loc:geo:ins:polygon',
      [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
          [0, 0.5],
        ],
      ],
    ],
    [
      'loc:geo:win:polygon',
      [
        [
          [0, 0],
          [181, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    ],
    [
      'loc:geo:win:polygon',
      [
        [
          [0, 0],
          [1, -91],
          [1, 1],
          [0, 0],
        ],
      ],
    ],
    [
      'loc:geo:win:polygon',
      [
        [
          [0, 0],
          ['1', 0],
          [1, 1],
          [0, 0],
        ],
      ],
    ],
    ['loc:geo:win:polygon', []],
    ['loc:geo:win:multipolygon', square],
    ['loc:geo:near', [1]],
    ['loc:geo:near', [1, 2, 3, 4, 5]],
    ['loc:geo:near', [200, 0]],
    ['loc:geo:near', [1, 2, -1]],
    ['loc:geo:near', [1, 2, 100, 10]],
    ['loc:geo:near', { lng: 1 }],
    ['loc:geo:far', [1, 2]],
    ['loc:geo:ins', square],
  ])('%s=%j -> invalid_query', (key, value) => {
    const raw = typeof value === 'string' ? encodeURIComponent(value) : enc(value);
    try {
      compileQuery(`${key}=${raw}`);
      expect.unreachable();
    } catch (error) {
      expect(isQueryError(error) && error.code).toBe('invalid_query');
      expect(isQueryError(error) && error.parameter).toBe(key);
    }
  });

  it('allows one geo:near per query', () => {
    expect(() => compileQuery(`a:geo:near=${enc([1, 2])}&b:geo:near=${enc([1, 2])}`)).toThrow(/only one/);
    expect(() => compileQuery(`a:geo:near=${enc([1, 2])}&a:geo:near=${enc([1, 3])}`)).toThrow(/only one/);
  });
});
