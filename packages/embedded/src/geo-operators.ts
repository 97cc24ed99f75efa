/**
 * `$geoWithin`, `$geoIntersects` and `$nearSphere` for the embedded engine, as mingo query
 * operators. GeoJSON shapes have geodesic edges, as in MongoDB: tested with turf on the gnomonic
 * projection around the query shape (`geo-geodesic.ts`); legacy `$box` / `$polygon` / `$center`
 * stay planar. Distances are great-circle metres on MongoDB's earth radius.
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { booleanIntersects } from '@turf/boolean-intersects';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { booleanWithin } from '@turf/boolean-within';
import { distance } from '@turf/distance';
import { pointToLineDistance } from '@turf/point-to-line-distance';
import { EmbeddedDbError } from './errors';
import { gnomonicFor } from './geo-geodesic';
import { geometriesAt, queryGeometry, simpleParts } from './geo-shapes';
import type { Geometry, Point, Position } from './geo-types';

/** MongoDB's radius of the earth for spherical queries, in metres. */
const EARTH_RADIUS_M = 6_378_100;

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

type Shape = (geometry: Geometry) => boolean;

const badShape = (shape: string, form: string): EmbeddedDbError =>
  new EmbeddedDbError('BadValue', `$geoWithin ${shape} needs ${form}`);

const isPair = (value: unknown): value is [number, number] =>
  Array.isArray(value) &&
  value.length === 2 &&
  value.every((n) => typeof n === 'number' && Number.isFinite(n));

const allPositions =
  (test: (at: Position) => boolean): Shape =>
  (geometry) =>
    positions(geometry).every(test);

/** `[[lng, lat], radians]`: spherical cap. */
function centerSphere(spec: unknown): Shape {
  const [center, radius] = Array.isArray(spec) ? spec : [];
  const point = queryGeometry('$centerSphere', { $geometry: { type: 'Point', coordinates: center } }, [
    'Point',
  ]) as Point;
  if (typeof radius !== 'number' || !(radius >= 0))
    throw badShape('$centerSphere', '[[lng, lat], radiusInRadians]');
  const limit = radius * EARTH_RADIUS_M;
  return allPositions((at) => partDistance(point.coordinates, { type: 'Point', coordinates: at }) <= limit);
}

/** Legacy flat shapes: `$box`, `$polygon`, `$center` (planar, in coordinate units). */
function box(spec: unknown): Shape {
  if (!Array.isArray(spec) || spec.length !== 2 || !spec.every(isPair))
    throw badShape('$box', '[[x1, y1], [x2, y2]]');
  const [[x1, y1], [x2, y2]] = spec as [[number, number], [number, number]];
  const [minX, maxX, minY, maxY] = [Math.min(x1, x2), Math.max(x1, x2), Math.min(y1, y2), Math.max(y1, y2)];
  return allPositions(([x = 0, y = 0]) => x >= minX && x <= maxX && y >= minY && y <= maxY);
}

function polygon(spec: unknown): Shape {
  if (!Array.isArray(spec) || spec.length < 3 || !spec.every(isPair))
    throw badShape('$polygon', 'three or more [x, y] points');
  const ring = [...spec, spec[0]] as Position[];
  return allPositions((at) => booleanPointInPolygon(at, { type: 'Polygon', coordinates: [ring] }));
}

function center(spec: unknown): Shape {
  const [middle, radius] = Array.isArray(spec) ? spec : [];
  if (!isPair(middle) || typeof radius !== 'number' || !(radius >= 0))
    throw badShape('$center', '[[x, y], radius]');
  return allPositions(([x = 0, y = 0]) => Math.hypot(x - middle[0], y - middle[1]) <= radius);
}

/** A GeoJSON area with geodesic edges: a part beyond the hemisphere around it is outside. */
function geometryShape(geometry: unknown): Shape {
  const shape = queryGeometry('$geoWithin', { $geometry: geometry }, AREA_TYPES);
  const plane = gnomonicFor(shape);
  const projected = plane?.project(shape);
  if (!plane || !projected) {
    return (doc) => simpleParts(doc).every((part) => safely(() => booleanWithin(part, shape)));
  }
  return (doc) =>
    simpleParts(doc).every((part) => {
      const flat = plane.project(part);
      return flat !== undefined && safely(() => booleanWithin(flat, projected));
    });
}

/** `$geoWithin` shapes, by operator. */
const WITHIN_SHAPES: Record<string, (spec: unknown) => Shape> = {
  $geometry: geometryShape,
  $centerSphere: centerSphere,
  $box: box,
  $polygon: polygon,
  $center: center,
};

function withinShape(operand: unknown): Shape {
  const keys = isPlainObject(operand) ? Object.keys(operand) : [];
  const build =
    keys.length === 1 && keys[0] && Object.hasOwn(WITHIN_SHAPES, keys[0])
      ? WITHIN_SHAPES[keys[0]]
      : undefined;
  if (!build)
    throw new EmbeddedDbError('BadValue', `$geoWithin takes one of ${Object.keys(WITHIN_SHAPES).join(', ')}`);
  return build((operand as Document)[keys[0] as string]);
}

/** `$geoWithin` with `$geometry` (Polygon / MultiPolygon), `$centerSphere`, or a legacy flat shape. */
export const geoWithin: FieldOperator = (field, operand) => {
  const within = withinShape(operand);
  return (doc) => geometriesAt(doc, field).some(within);
};

/** `$geoIntersects` with `$geometry` (any GeoJSON geometry but a collection). */
export const geoIntersects: FieldOperator = (field, operand) => {
  const shape = queryGeometry('$geoIntersects', operand, ANY_TYPES);
  const plane = gnomonicFor(shape);
  const projected = plane?.project(shape);
  // Geodesic edges where the part and the shape share a hemisphere; planar otherwise.
  const intersects = (part: Geometry): boolean => {
    const flat = projected && plane?.project(part);
    return flat ? booleanIntersects(flat, projected) : booleanIntersects(part, shape);
  };
  return (doc) =>
    geometriesAt(doc, field).some((geometry) =>
      simpleParts(geometry).some((part) => safely(() => intersects(part))),
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

/** Parses `{ $geometry: Point, $minDistance?, $maxDistance? }` (metres) or a legacy `[lng, lat]`. */
export function parseNearSphere(operand: unknown): NearSphere {
  if (isPair(operand)) {
    const coordinates = queryGeometry('$nearSphere', { $geometry: { type: 'Point', coordinates: operand } }, [
      'Point',
    ]);
    return { point: coordinates as Point, min: 0, max: Number.POSITIVE_INFINITY };
  }
  const point = queryGeometry('$nearSphere', operand, ['Point']) as Point;
  const spec = operand as Document;
  return {
    point,
    min: distanceBound(spec.$minDistance, 0, '$minDistance'),
    max: distanceBound(spec.$maxDistance, Number.POSITIVE_INFINITY, '$maxDistance'),
  };
}

/** `$nearSphere` (and `$near` on a 2dsphere field): keeps documents within [min, max] metres; the engine sorts them nearest first. */
export const nearSphere: FieldOperator = (field, operand) => {
  const { point, min, max } = parseNearSphere(operand);
  return (doc) => {
    const metres = distanceToField(doc, field, point);
    return Number.isFinite(metres) && metres >= min && metres <= max;
  };
};
