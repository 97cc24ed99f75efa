/**
 * `$geoWithin`, `$geoIntersects` and `$nearSphere` for the embedded engine, as mingo query
 * operators. Shapes are tested with turf (planar edges; MongoDB uses geodesic ones, which only
 * differs for very large shapes); distances are great-circle metres on MongoDB's earth radius.
 */
import { booleanIntersects } from '@turf/boolean-intersects';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { booleanWithin } from '@turf/boolean-within';
import { distance } from '@turf/distance';
import { pointToLineDistance } from '@turf/point-to-line-distance';
import type { Document } from '../types';
import { EmbeddedDbError } from './errors';
import { geometriesAt, queryGeometry, simpleParts } from './geo-shapes';
import type { Geometry, Point, Position } from './geo-types';
import { isPlainObject } from './values';

/** MongoDB's radius of the earth for spherical queries, in metres. */
export const EARTH_RADIUS_M = 6_378_100;

const AREA_TYPES = ['Polygon', 'MultiPolygon'] as const;
const ANY_TYPES = [
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
] as const;

/** A field-level query operator: compiled once per query, then tested per document. */
export type FieldOperator = (field: string, operand: unknown) => (doc: Document) => boolean;

const safely = (test: () => boolean): boolean => {
  try {
    return test();
  } catch {
    return false; // turf refuses some combinations of geometry types: they do not match
  }
};

function lineDistance(from: Position, line: Position[]): number {
  return (
    pointToLineDistance(from, { type: 'LineString', coordinates: line }, { units: 'radians' }) *
    EARTH_RADIUS_M
  );
}

function partDistance(from: Position, part: Geometry): number {
  if (part.type === 'Point') return distance(from, part.coordinates, { units: 'radians' }) * EARTH_RADIUS_M;
  if (part.type === 'LineString') return lineDistance(from, part.coordinates);
  if (part.type !== 'Polygon') return Number.POSITIVE_INFINITY;
  if (booleanPointInPolygon(from, part)) return 0;
  return Math.min(...part.coordinates.map((ring) => lineDistance(from, ring)));
}

/** Great-circle distance in metres from `from` to the nearest geometry `doc` holds at `field`. */
export function distanceToField(doc: Document, field: string, from: Point): number {
  const parts = geometriesAt(doc, field).flatMap(simpleParts);
  return Math.min(Number.POSITIVE_INFINITY, ...parts.map((part) => partDistance(from.coordinates, part)));
}

/** How deep the positions of each geometry type are nested. */
const NESTING = {
  Point: 0,
  MultiPoint: 1,
  LineString: 1,
  MultiLineString: 2,
  Polygon: 2,
  MultiPolygon: 3,
} as const;

function positions(geometry: Geometry): Position[] {
  if (geometry.type === 'GeometryCollection') return geometry.geometries.flatMap(positions);
  return [geometry.coordinates].flat(NESTING[geometry.type]) as Position[];
}

function centerSphere(operand: unknown): (geometry: Geometry) => boolean {
  const spec = isPlainObject(operand) ? operand.$centerSphere : undefined;
  const [center, radius] = Array.isArray(spec) ? spec : [];
  const point = queryGeometry('$centerSphere', { $geometry: { type: 'Point', coordinates: center } }, [
    'Point',
  ]) as Point;
  if (typeof radius !== 'number' || !(radius >= 0)) {
    throw new EmbeddedDbError('BadValue', '$centerSphere needs [[lng, lat], radiusInRadians]');
  }
  const limit = radius * EARTH_RADIUS_M;
  return (geometry) =>
    positions(geometry).every(
      (at) => partDistance(point.coordinates, { type: 'Point', coordinates: at }) <= limit,
    );
}

function withinShape(operand: unknown): (geometry: Geometry) => boolean {
  if (isPlainObject(operand) && '$centerSphere' in operand) return centerSphere(operand);
  const shape = queryGeometry('$geoWithin', operand, AREA_TYPES);
  return (geometry) => simpleParts(geometry).every((part) => safely(() => booleanWithin(part, shape)));
}

/** `$geoWithin` with `$geometry` (Polygon / MultiPolygon) or `$centerSphere`. */
export const geoWithin: FieldOperator = (field, operand) => {
  const within = withinShape(operand);
  return (doc) => geometriesAt(doc, field).some(within);
};

/** `$geoIntersects` with `$geometry` (any GeoJSON geometry but a collection). */
export const geoIntersects: FieldOperator = (field, operand) => {
  const shape = queryGeometry('$geoIntersects', operand, ANY_TYPES);
  return (doc) =>
    geometriesAt(doc, field).some((geometry) =>
      simpleParts(geometry).some((part) => safely(() => booleanIntersects(part, shape))),
    );
};

/** A parsed `$nearSphere` operand. */
export interface NearSphere {
  point: Point;
  min: number;
  max: number;
}

const distanceBound = (value: unknown, fallback: number, name: string): number => {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && value >= 0) return value;
  throw new EmbeddedDbError('BadValue', `${name} must be a non-negative number of metres`);
};

/** Parses `{ $geometry: Point, $minDistance?, $maxDistance? }` (metres). */
export function parseNearSphere(operand: unknown): NearSphere {
  const point = queryGeometry('$nearSphere', operand, ['Point']) as Point;
  const spec = operand as Document;
  return {
    point,
    min: distanceBound(spec.$minDistance, 0, '$minDistance'),
    max: distanceBound(spec.$maxDistance, Number.POSITIVE_INFINITY, '$maxDistance'),
  };
}

/** `$nearSphere`: keeps documents within [min, max] metres; the engine sorts them nearest first. */
export const nearSphere: FieldOperator = (field, operand) => {
  const { point, min, max } = parseNearSphere(operand);
  return (doc) => {
    const metres = distanceToField(doc, field, point);
    return metres >= min && metres <= max;
  };
};
