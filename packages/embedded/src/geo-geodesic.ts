/**
 * Geodesic edges for GeoJSON shapes, as MongoDB's 2dsphere queries draw them: the gnomonic
 * projection, centred on the query shape, maps every great circle to a straight line, so planar
 * tests (turf's) on projected coordinates answer for great-circle edges exactly. It holds for
 * everything within the hemisphere around the centre; MongoDB's GeoJSON shapes are smaller than
 * a hemisphere, so a position beyond it lies outside the shape.
 */
import type { Geometry, Position } from './geo-types';

type Vector = readonly [number, number, number];

const RADIANS = Math.PI / 180;

function toVector([lng = 0, lat = 0]: Position): Vector {
  const [lambda, phi] = [lng * RADIANS, lat * RADIANS];
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

const dot = (a: Vector, b: Vector): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vector, b: Vector): Vector => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
function unit(v: Vector): Vector | undefined {
  const length = Math.hypot(v[0], v[1], v[2]);
  return length > 1e-12 ? [v[0] / length, v[1] / length, v[2] / length] : undefined;
}

/** Every position of a geometry. */
function positionsOf(geometry: Geometry): Position[] {
  switch (geometry.type) {
    case 'Point':
      return [geometry.coordinates];
    case 'MultiPoint':
    case 'LineString':
      return geometry.coordinates;
    case 'MultiLineString':
    case 'Polygon':
      return geometry.coordinates.flat();
    case 'MultiPolygon':
      return geometry.coordinates.flat(2);
    default:
      return geometry.geometries.flatMap(positionsOf);
  }
}

/** A gnomonic projection: positions to plane coordinates (undefined beyond the hemisphere). */
export interface Gnomonic {
  project(geometry: Geometry): Geometry | undefined;
}

/** Below this cosine from the centre a position is treated as beyond the hemisphere. */
const HORIZON = 1e-9;

/** The gnomonic projection centred on `shape`, or undefined when `shape` spans a hemisphere. */
export function gnomonicFor(shape: Geometry): Gnomonic | undefined {
  const vectors = positionsOf(shape).map(toVector);
  const centre = unit(
    vectors.reduce<Vector>((sum, v) => [sum[0] + v[0], sum[1] + v[1], sum[2] + v[2]], [0, 0, 0]),
  );
  if (!centre || vectors.some((v) => dot(v, centre) <= HORIZON)) return undefined;
  const east = unit(cross([0, 0, 1], centre)) ?? ([1, 0, 0] as Vector);
  const north = cross(centre, east);
  const at = (position: Position): Position | undefined => {
    const v = toVector(position);
    const height = dot(v, centre);
    return height > HORIZON ? [dot(v, east) / height, dot(v, north) / height] : undefined;
  };
  const map = (positions: Position[]): Position[] | undefined => {
    const out: Position[] = [];
    for (const position of positions) {
      const projected = at(position);
      if (!projected) return undefined;
      out.push(projected);
    }
    return out;
  };
  const project = (geometry: Geometry): Geometry | undefined => {
    switch (geometry.type) {
      case 'Point': {
        const coordinates = at(geometry.coordinates);
        return coordinates && { type: 'Point', coordinates };
      }
      case 'MultiPoint':
      case 'LineString': {
        const coordinates = map(geometry.coordinates);
        return coordinates && { type: geometry.type, coordinates };
      }
      case 'MultiLineString':
      case 'Polygon': {
        const coordinates = geometry.coordinates.map(map);
        return coordinates.every(Boolean)
          ? { type: geometry.type, coordinates: coordinates as Position[][] }
          : undefined;
      }
      case 'MultiPolygon': {
        const coordinates = geometry.coordinates.map((polygon) => polygon.map(map));
        const complete = coordinates.every((polygon) => polygon.every(Boolean));
        return complete ? { type: 'MultiPolygon', coordinates: coordinates as Position[][][] } : undefined;
      }
      default:
        return undefined;
    }
  };
  return { project };
}
