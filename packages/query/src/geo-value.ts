import { isPlainObject } from '@store/common';
import { GEOMETRIES, geometryProblem } from './geo';

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Why a legacy coordinate pair (`[lng, lat]` or `{ <x>: lng, <y>: lat }`) is not one, or `undefined`. */
function legacyPairProblem(pair: unknown[]): string | undefined {
  return GEOMETRIES.Point(pair.length === 2 && pair.every(isNumber) ? pair : [NaN]);
}

/** Why `value` is not a GeoJSON `GeometryCollection`, or `undefined`. */
function collectionProblem(value: Record<string, unknown>): string | undefined {
  const { geometries } = value;
  if (!Array.isArray(geometries) || geometries.length === 0) {
    return 'a GeometryCollection needs a non-empty "geometries" array';
  }
  for (const [i, geometry] of geometries.entries()) {
    const { type, coordinates } = isPlainObject(geometry) ? geometry : {};
    const problem = geometryProblem({ type, coordinates });
    if (problem) return `geometries[${i}]: ${problem}`;
  }
  return undefined;
}

/**
 * Why `value`, stored in a field with a `2dsphere` index, would make MongoDB refuse the write
 * ("Can't extract geo keys", error 16755), or `undefined` when it is fine: `null`, `[]`, a
 * GeoJSON geometry (`Point`, `LineString`, `Polygon`, the `Multi*` forms, a
 * `GeometryCollection`) with valid coordinates, or a legacy pair `[lng, lat]` /
 * `{ lng, lat }` (any two field names, longitude first).
 */
export function geoValueProblem(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : legacyPairProblem(value);
  if (!isPlainObject(value)) return 'must be a GeoJSON geometry or a [longitude, latitude] pair';
  if (!Object.hasOwn(value, 'type')) {
    const pair = Object.values(value);
    return legacyPairProblem(pair) && 'must be a GeoJSON geometry (with "type") or a { lng, lat } pair';
  }
  if (value.type === 'GeometryCollection') return collectionProblem(value);
  return geometryProblem({ type: value.type, coordinates: value.coordinates });
}
