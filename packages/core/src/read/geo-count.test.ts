import { describe, expect, it } from 'vitest';
import { countableFilter } from './geo-count';

const point = { $geometry: { type: 'Point', coordinates: [2.35, 48.85] } };
const radians = (metres: number) => metres / 6_378_100;

describe('countableFilter', () => {
  it('leaves a filter without $nearSphere as it is', () => {
    const filter = { a: 1, b: { $gt: 2 }, $or: [{ c: 1 }] };
    expect(countableFilter(filter)).toEqual(filter);
  });

  it('turns $nearSphere with $maxDistance into $geoWithin $centerSphere', () => {
    const filter = { loc: { $nearSphere: { ...point, $maxDistance: 1000 } }, kind: 'shop' };
    expect(countableFilter(filter)).toEqual({
      loc: { $geoWithin: { $centerSphere: [[2.35, 48.85], radians(1000)] } },
      kind: 'shop',
    });
  });

  it('excludes the inner circle of a $minDistance', () => {
    const filter = { loc: { $nearSphere: { ...point, $minDistance: 10, $maxDistance: 1000 } } };
    expect(countableFilter(filter)).toEqual({
      $and: [
        { loc: { $geoWithin: { $centerSphere: [[2.35, 48.85], radians(1000)] } } },
        { $nor: [{ loc: { $geoWithin: { $centerSphere: [[2.35, 48.85], radians(10)] } } }] },
      ],
    });
  });

  it('counts every located document when there is no $maxDistance', () => {
    expect(countableFilter({ loc: { $nearSphere: point } })).toEqual({
      loc: { $exists: true, $nin: [null, []] },
    });
  });

  it('rewrites inside $and', () => {
    const filter = { $and: [{ loc: { $nearSphere: { ...point, $maxDistance: 5 } } }, { a: 1 }] };
    expect(countableFilter(filter)).toEqual({
      $and: [{ loc: { $geoWithin: { $centerSphere: [[2.35, 48.85], radians(5)] } } }, { a: 1 }],
    });
  });

  it('reads the legacy form, whose distances are radians', () => {
    expect(countableFilter({ loc: { $nearSphere: [1, 2], $maxDistance: 0.1 } })).toEqual({
      loc: { $geoWithin: { $centerSphere: [[1, 2], 0.1] } },
    });
  });
});
