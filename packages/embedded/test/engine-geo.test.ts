import type { StoreCollection } from '@store/common';
import { compileQuery } from '@store/query';
import { describeEngines } from '@store/test-kit';
import { beforeAll, expect, it } from 'vitest';
import { ids } from './fixtures';

const point = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] });
const square = (lng: number, lat: number, size: number) => [
  [
    [lng, lat],
    [lng + size, lat],
    [lng + size, lat + size],
    [lng, lat + size],
    [lng, lat],
  ],
];

/** Shapes kept well away from the edges of every query, so planar and geodesic edges agree. */
const PLACES = [
  { _id: 'paris', at: point(2.3522, 48.8566) },
  { _id: 'lyon', at: point(4.8357, 45.764) },
  { _id: 'marseille', at: point(5.3698, 43.2965) },
  { _id: 'london', at: point(-0.1276, 51.5072) },
  { _id: 'zone', at: { type: 'Polygon', coordinates: square(2.0, 48.7, 0.2) } },
  { _id: 'nowhere' },
];

const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const FRANCE = [
  [
    [-5, 42],
    [8, 42],
    [8, 51],
    [-5, 51],
    [-5, 42],
  ],
];
const NEAR_PARIS = [
  [
    [2.1, 48.8],
    [2.5, 48.8],
    [2.5, 49.0],
    [2.1, 49.0],
    [2.1, 48.8],
  ],
];

describeEngines('geo queries', (engine) => {
  let places: StoreCollection;
  beforeAll(async () => {
    places = (await engine.createDb()).collection('places');
    await places.createIndex({ at: '2dsphere' });
    for (const place of PLACES) await places.insertOne(place);
  });

  it.each([
    ['win:polygon', `at:geo:win:polygon=${json(FRANCE)}`, ['lyon', 'marseille', 'paris', 'zone']],
    [
      'win:multipolygon',
      `at:geo:win:multipolygon=${json([square(2, 48, 1), square(5, 43, 1)])}`,
      ['marseille', 'paris', 'zone'],
    ],
    ['ins:polygon', `at:geo:ins:polygon=${json(NEAR_PARIS)}`, ['paris', 'zone']],
    [
      'ins:multipolygon',
      `at:geo:ins:multipolygon=${json([NEAR_PARIS, square(-1, 51, 1)])}`,
      ['london', 'paris', 'zone'],
    ],
  ])('%s', async (_title, query, expected) => {
    const { filter, sort } = compileQuery(query);
    expect(ids(await places.find(filter, { sort }).toArray())).toEqual(expected);
    expect(await places.countDocuments(filter)).toBe(expected.length);
  });

  it.each([
    ['within a radius, nearest first', '[2.3522,48.8566,null,370000]', ['paris', 'zone', 'london']],
    ['beyond a minimum distance', '[2.3522,48.8566,1000,370000]', ['zone', 'london']],
    ['with no bounds', '[2.3522,48.8566]', ['paris', 'zone', 'london', 'lyon', 'marseille']],
  ])('geo:near %s', async (_title, near, expected) => {
    const { filter, sort } = compileQuery(`at:geo:near=${near}`);
    expect(sort).toBeUndefined();
    expect(ids(await places.find(filter, { sort }).toArray())).toEqual(expected);
  });

  it('lets an explicit sort override the distance order, and pages after it', async () => {
    const { filter } = compileQuery('at:geo:near=[2.3522,48.8566,null,370000]');
    expect(ids(await places.find(filter, { sort: { _id: 1 } }).toArray())).toEqual([
      'london',
      'paris',
      'zone',
    ]);
    expect(ids(await places.find(filter, { skip: 1, limit: 1 }).toArray())).toEqual(['zone']);
  });

  it('counts a radius with $geoWithin $centerSphere (a count cannot use $nearSphere)', async () => {
    const { filter } = compileQuery('at:geo:near=[2.3522,48.8566,null,370000]');
    await expect(places.countDocuments(filter)).rejects.toHaveProperty('code');
    const radians = 370_000 / 6_378_100;
    expect(
      await places.countDocuments({ at: { $geoWithin: { $centerSphere: [[2.3522, 48.8566], radians] } } }),
    ).toBe(3);
  });

  it('needs a 2dsphere index for $nearSphere', async () => {
    const other = (await engine.createDb()).collection('unindexed');
    await other.insertOne({ at: point(0, 0) });
    const { filter } = compileQuery('at:geo:near=[0,0,null,10]');
    await expect(other.find(filter).toArray()).rejects.toHaveProperty('code');
  });
});
