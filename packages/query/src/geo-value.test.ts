import { describe, expect, it } from 'vitest';
import { geoValueProblem } from './index';

const ring = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 0],
];

describe('geoValueProblem (what a 2dsphere index accepts, MongoDB error 16755 otherwise)', () => {
  it.each([
    ['null', null],
    ['a missing value', undefined],
    ['an empty array', []],
    ['a Point', { type: 'Point', coordinates: [2.35, 48.85] }],
    ['a Point with other members', { type: 'Point', coordinates: [2.35, 48.85], name: 'Paris' }],
    [
      'a LineString',
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
    ],
    ['a Polygon', { type: 'Polygon', coordinates: [ring] }],
    [
      'a MultiPoint',
      {
        type: 'MultiPoint',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
    ],
    [
      'a MultiLineString',
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
        ],
      },
    ],
    ['a MultiPolygon', { type: 'MultiPolygon', coordinates: [[ring]] }],
    [
      'a GeometryCollection',
      { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [1, 2] }] },
    ],
    ['a legacy pair', [2.35, 48.85]],
    ['a legacy embedded pair', { lng: 2.35, lat: 48.85 }],
  ])('accepts %s', (_, value) => {
    expect(geoValueProblem(value)).toBeUndefined();
  });

  it.each([
    ['a string', 'Paris', /GeoJSON/],
    ['a number', 5, /GeoJSON/],
    ['an unknown type', { type: 'Circle', coordinates: [0, 0] }, /unsupported geometry type Circle/],
    ['a Point out of range', { type: 'Point', coordinates: [200, 0] }, /longitude 200/],
    ['a Point with a latitude out of range', { type: 'Point', coordinates: [0, 91] }, /latitude 91/],
    ['a Point without coordinates', { type: 'Point' }, /position/],
    ['a Point with altitude', { type: 'Point', coordinates: [0, 0, 10] }, /position/],
    ['a one-position LineString', { type: 'LineString', coordinates: [[0, 0]] }, /line string/],
    [
      'a LineString repeating a vertex',
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [0, 0],
        ],
      },
      /repeats/,
    ],
    [
      'an open ring',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
      },
      /closed/,
    ],
    [
      'a short ring',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      /at least 4/,
    ],
    [
      'a degenerate ring',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      /3 different/,
    ],
    ['an empty GeometryCollection', { type: 'GeometryCollection', geometries: [] }, /geometries/],
    [
      'a GeometryCollection with a bad member',
      { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [0, 100] }] },
      /geometries\[0\]: latitude 100/,
    ],
    ['a legacy pair out of range', [0, 95], /latitude 95/],
    ['a legacy triple', [1, 2, 3], /position/],
    [
      'an array of points',
      [
        [1, 2],
        [3, 4],
      ],
      /position/,
    ],
    ['an object of three numbers', { x: 1, y: 2, z: 3 }, /GeoJSON/],
  ])('refuses %s', (_, value, problem) => {
    expect(geoValueProblem(value)).toMatch(problem);
  });
});
