/**
 * `$text` (the manual's `$text` reference page: its articles, English stemming and stop words,
 * phrases, negation, case and diacritic sensitivity, textScore) and geospatial queries (the
 * "Geospatial Queries" pages: `$near` / `$nearSphere` with distances, `$geoWithin` with GeoJSON
 * polygons, whose edges are geodesic, and legacy planar shapes, `$geoIntersects`).
 */
import { expect } from 'vitest';
import { type FidelityCase, find, withDocs } from '../case-types';

const ARTICLES = [
  { _id: 1, subject: 'coffee', author: 'xyz', views: 50 },
  { _id: 2, subject: 'Coffee Shopping', author: 'efg', views: 5 },
  { _id: 3, subject: 'Baking a cake', author: 'abc', views: 90 },
  { _id: 4, subject: 'baking', author: 'xyz', views: 100 },
  { _id: 5, subject: 'Café Con Leche', author: 'abc', views: 200 },
  { _id: 6, subject: 'Сырники', author: 'efg', views: 80 },
  { _id: 7, subject: 'coffee and cream', author: 'efg', views: 10 },
  { _id: 8, subject: 'Cafe con Leche', author: 'xyz', views: 10 },
];
const TEXT_INDEX = [[{ subject: 'text' }]] as const;
const search = (terms: string, options: Record<string, unknown> = {}) =>
  find({ $text: { $search: terms, ...options } });

const text: FidelityCase[] = [
  ...withDocs(
    ARTICLES,
    [
      ['one word', search('coffee'), [1, 2, 7]],
      ['any of several words, stemmed ("bake" finds "Baking")', search('bake coffee cake'), [1, 2, 3, 4, 7]],
      ['a phrase', search('"coffee shop"'), [2]],
      ['a negated word is stemmed too', search('coffee -shop'), [1, 7]],
      ['a non-Latin word', search('сырники'), [6]],
      ['case-sensitive', search('Coffee', { $caseSensitive: true }), [2]],
      ['a case-sensitive phrase', search('"Café Con Leche"', { $caseSensitive: true }), [5]],
      ['diacritic-insensitive by default', search('CAFÉ'), [5, 8]],
      ['diacritic-sensitive', search('CAFÉ', { $diacriticSensitive: true }), [5]],
      [
        'diacritic-sensitive with a negated word',
        search('leches -cafés', { $diacriticSensitive: true }),
        [8],
      ],
      ['a stop word alone matches nothing', search('and'), []],
      ['stop words are ignored among other words', search('a cake'), [3]],
      ['a plural is stemmed', search('cakes'), [3]],
      ['$text with another condition', find({ $text: { $search: 'coffee' }, views: { $gt: 20 } }), [1]],
      ['$text in a count', { count: { $text: { $search: 'leche' } } }, 2],
      [
        'textScore projected',
        find({ $text: { $search: 'cake' } }, { projection: { _id: 1, score: { $meta: 'textScore' } } }),
        [{ _id: 3, score: expect.any(Number) }],
        { error: 2 },
      ],
    ],
    TEXT_INDEX,
  ),
  ...withDocs(
    [
      { _id: 1, t: 'Running shoes' },
      { _id: 2, t: 'The runner' },
      { _id: 3, t: 'She runs daily' },
      { _id: 4, t: 'Ran fast' },
    ],
    [
      ['"run" finds "Running" and "runs"', find({ $text: { $search: 'run' } }), [1, 3]],
      ['"running" finds "runs"', find({ $text: { $search: 'running' } }), [1, 3]],
      ['"the" is a stop word', find({ $text: { $search: 'the' } }), []],
    ],
    [[{ t: 'text' }]],
  ),
];

const point = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] });
const PLACES = [
  { _id: 1, name: 'Central Park', location: point(-73.97, 40.77), category: 'Parks' },
  { _id: 2, name: 'Sara D. Roosevelt Park', location: point(-73.9928, 40.7193), category: 'Parks' },
  { _id: 3, name: 'Polo Grounds', location: point(-73.9375, 40.8303), category: 'Stadiums' },
];
const GEO_INDEX = [[{ location: '2dsphere' }]] as const;
const FROM = { $geometry: point(-73.9667, 40.78) };
const MANHATTAN = {
  type: 'Polygon',
  coordinates: [
    [
      [-74.02, 40.7],
      [-73.95, 40.7],
      [-73.95, 40.8],
      [-74.02, 40.8],
      [-74.02, 40.7],
    ],
  ],
};
/** A polygon with long east-west edges at latitudes 60 and 70: geodesic edges bulge poleward. */
const NORTH_BAND = {
  type: 'Polygon',
  coordinates: [
    [
      [-60, 60],
      [60, 60],
      [60, 70],
      [-60, 70],
      [-60, 60],
    ],
  ],
};
const BAND_POINTS = [
  { _id: 1, location: point(0, 65) },
  { _id: 2, location: point(0, 75) },
];
const LINE = [
  {
    _id: 1,
    location: {
      type: 'LineString',
      coordinates: [
        [-73.97, 40.77],
        [-73.5, 41.2],
      ],
    },
  },
  { _id: 2, location: point(-73.97, 40.771) },
];

const geo: FidelityCase[] = [
  ...withDocs(
    PLACES,
    [
      [
        '$near between $minDistance and $maxDistance',
        find(
          { location: { $near: { ...FROM, $minDistance: 1000, $maxDistance: 5000 } } },
          { sort: undefined },
        ),
        [1],
      ],
      [
        '$nearSphere lists nearest first',
        find({ location: { $nearSphere: FROM } }, { sort: undefined }),
        [1, 3, 2],
      ],
      [
        '$nearSphere with $maxDistance',
        find({ location: { $nearSphere: { ...FROM, $maxDistance: 6500 } } }, { sort: undefined }),
        [1, 3],
      ],
      [
        '$near with another condition',
        find({ location: { $near: FROM }, category: 'Parks' }, { sort: undefined }),
        [1, 2],
      ],
      ['a count refuses $near', { count: { location: { $near: FROM } } }, { error: 2 }],
      ['$geoWithin a GeoJSON polygon', find({ location: { $geoWithin: { $geometry: MANHATTAN } } }), [1, 2]],
      [
        '$geoWithin $centerSphere (radians)',
        find({ location: { $geoWithin: { $centerSphere: [[-73.97, 40.77], 2 / 3963.2] } } }),
        [1],
      ],
      ['$geoIntersects a polygon', find({ location: { $geoIntersects: { $geometry: MANHATTAN } } }), [1, 2]],
    ],
    GEO_INDEX,
  ),
  ...withDocs(
    BAND_POINTS,
    [
      [
        '$geoWithin a GeoJSON polygon follows geodesic edges',
        find({ location: { $geoWithin: { $geometry: NORTH_BAND } } }),
        [2],
      ],
      [
        '$geoIntersects a GeoJSON polygon follows geodesic edges',
        find({ location: { $geoIntersects: { $geometry: NORTH_BAND } } }),
        [2],
      ],
    ],
    GEO_INDEX,
  ),
  ...withDocs(
    [
      { _id: 1, loc: [0, 65] },
      { _id: 2, loc: [0, 75] },
    ],
    [
      [
        'legacy $polygon stays planar',
        find({
          loc: {
            $geoWithin: {
              $polygon: [
                [-60, 60],
                [60, 60],
                [60, 70],
                [-60, 70],
              ],
            },
          },
        }),
        [1],
      ],
      [
        'legacy $box',
        find({
          loc: {
            $geoWithin: {
              $box: [
                [-10, 70],
                [10, 80],
              ],
            },
          },
        }),
        [2],
      ],
      ['legacy $center (planar radius)', find({ loc: { $geoWithin: { $center: [[0, 64], 2] } } }), [1]],
    ],
  ),
  ...withDocs(
    LINE,
    [
      [
        '$nearSphere reaches a line by its nearest point',
        find(
          { location: { $nearSphere: { $geometry: point(-73.97, 40.77), $maxDistance: 200 } } },
          { sort: undefined },
        ),
        [1, 2],
      ],
      [
        '$geoWithin $centerSphere needs the whole line inside (what counting $near rewrites to)',
        { count: { location: { $geoWithin: { $centerSphere: [[-73.97, 40.77], 200 / 6378100] } } } },
        1,
      ],
    ],
    GEO_INDEX,
  ),
];

export const TEXT_GEO_CASES: Record<string, FidelityCase[]> = {
  $text: text,
  geospatial: geo,
};
