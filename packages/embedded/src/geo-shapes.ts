/**
 * GeoJSON for the embedded engine: validating query shapes (as strictly as MongoDB: ranges,
 * closed rings) and reading the geometries a document holds at a field (GeoJSON objects,
 * legacy `[lng, lat]` pairs, arrays of either).
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { EmbeddedDbError } from './errors';
import type { Geometry, Point, Position } from './geo-types';
import { valuesAtPath } from './paths';

function isPosition(value: unknown): value is Position {
  if (!Array.isArray(value) || value.length < 2 || value.length > 3) return false;
  if (!value.every((n) => typeof n === 'number' && Number.isFinite(n))) return false;
  const [lng = Number.NaN, lat = Number.NaN] = value as number[];
  return lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90;
}

function isRing(value: unknown): boolean {
  if (!Array.isArray(value) || value.length < 4 || !value.every(isPosition)) return false;
  const first = value[0] as Position;
  const last = value[value.length - 1] as Position;
  return first[0] === last[0] && first[1] === last[1];
}

const isLine = (value: unknown): boolean =>
  Array.isArray(value) && value.length >= 2 && value.every(isPosition);
const isPolygonCoords = (value: unknown): boolean =>
  Array.isArray(value) && value.length >= 1 && value.every(isRing);
const listOf = (check: (v: unknown) => boolean) => (value: unknown) =>
  Array.isArray(value) && value.every(check);

/** Coordinate validators per GeoJSON type. */
const COORDINATES: Record<string, (coordinates: unknown) => boolean> = {
  Point: isPosition,
  MultiPoint: listOf(isPosition),
  LineString: isLine,
  MultiLineString: listOf(isLine),
  Polygon: isPolygonCoords,
  MultiPolygon: listOf(isPolygonCoords),
};

/** True for a valid GeoJSON geometry (GeometryCollection included). */
function isGeometry(value: unknown): value is Geometry {
  if (!isPlainObject(value) || typeof value.type !== 'string') return false;
  if (value.type === 'GeometryCollection')
    return Array.isArray(value.geometries) && value.geometries.every(isGeometry);
  const check = COORDINATES[value.type];
  return check?.(value.coordinates) === true;
}

/** The `$geometry` of a query operand, checked against the allowed types, or a BadValue error. */
export function queryGeometry(operator: string, operand: unknown, types: readonly string[]): Geometry {
  const geometry = isPlainObject(operand) ? operand.$geometry : undefined;
  if (!isGeometry(geometry) || !types.includes(geometry.type)) {
    throw new EmbeddedDbError('BadValue', `${operator} needs $geometry with a valid ${types.join(' or ')}`);
  }
  return geometry;
}

function toGeometries(value: unknown): Geometry[] {
  if (isGeometry(value)) return [value];
  if (isPosition(value)) return [{ type: 'Point', coordinates: value } satisfies Point];
  if (Array.isArray(value)) return value.flatMap(toGeometries);
  return [];
}

/** Every geometry `doc` holds at `field`. */
export function geometriesAt(doc: Document, field: string): Geometry[] {
  return valuesAtPath(doc, field, false).flatMap(toGeometries);
}

/** A geometry split into Points, LineStrings and Polygons. */
export function simpleParts(geometry: Geometry): Geometry[] {
  switch (geometry.type) {
    case 'MultiPoint':
      return geometry.coordinates.map((coordinates): Geometry => ({ type: 'Point', coordinates }));
    case 'MultiLineString':
      return geometry.coordinates.map((coordinates): Geometry => ({ type: 'LineString', coordinates }));
    case 'MultiPolygon':
      return geometry.coordinates.map((coordinates): Geometry => ({ type: 'Polygon', coordinates }));
    case 'GeometryCollection':
      return geometry.geometries.flatMap(simpleParts);
    default:
      return [geometry];
  }
}
