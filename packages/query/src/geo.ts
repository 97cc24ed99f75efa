import { parseJsonValue } from './json-value';
import { fail } from './query-error';

type Check = (value: unknown) => string | undefined;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** `[lng, lat]` with lng in [-180, 180] and lat in [-90, 90]. */
const position: Check = (v) => {
  if (!Array.isArray(v) || v.length !== 2 || !isNumber(v[0]) || !isNumber(v[1])) {
    return 'a position must be [longitude, latitude] numbers';
  }
  if (v[0] < -180 || v[0] > 180) return `longitude ${v[0]} is outside [-180, 180]`;
  if (v[1] < -90 || v[1] > 90) return `latitude ${v[1]} is outside [-90, 90]`;
  return undefined;
};

const arrayOf =
  (item: Check, min: number, what: string): Check =>
  (v) => {
    if (!Array.isArray(v) || v.length < min) return `${what} must be an array of at least ${min}`;
    for (const x of v) {
      const problem = item(x);
      if (problem) return problem;
    }
    return undefined;
  };

const samePosition = (a: number[], b: number[]) => a[0] === b[0] && a[1] === b[1];

/** A linear ring: at least four positions, the last equal to the first, three of them different. */
const ring: Check = (v) => {
  const problem = arrayOf(position, 4, 'a ring')(v);
  if (problem) return problem;
  const r = v as number[][];
  if (!samePosition(r[0] as number[], r[r.length - 1] as number[]))
    return 'a ring must be closed (last = first)';
  const distinct = new Set(r.map((p) => `${p[0]},${p[1]}`));
  return distinct.size >= 3 ? undefined : 'a ring needs at least 3 different positions';
};

const polygon = arrayOf(ring, 1, 'a polygon');

/** At least two positions, no two neighbours equal (MongoDB refuses a repeated vertex). */
const lineString: Check = (v) => {
  const problem = arrayOf(position, 2, 'a line string')(v);
  if (problem) return problem;
  const line = v as number[][];
  const repeated = line.findIndex((p, i) => i > 0 && samePosition(p, line[i - 1] as number[]));
  return repeated < 0 ? undefined : `a line string repeats position ${repeated} right after itself`;
};

/** Coordinates validators of the GeoJSON geometry types. */
export const GEOMETRIES = {
  Point: position,
  MultiPoint: arrayOf(position, 1, 'a multipoint'),
  LineString: lineString,
  MultiLineString: arrayOf(lineString, 1, 'a multilinestring'),
  Polygon: polygon,
  MultiPolygon: arrayOf(polygon, 1, 'a multipolygon'),
} as const satisfies Record<string, Check>;

/** Why `value` is not a valid GeoJSON geometry (`{ type, coordinates }`), or `undefined`. */
export function geometryProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return '$geometry must be an object';
  const { type, coordinates, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return '$geometry takes only type and coordinates';
  if (typeof type !== 'string' || !Object.hasOwn(GEOMETRIES, type))
    return `unsupported geometry type ${String(type)}`;
  return GEOMETRIES[type as keyof typeof GEOMETRIES](coordinates);
}

function shape(operator: string, type: keyof typeof GEOMETRIES) {
  return (value: string, parameter: string) => {
    const coordinates = parseJsonValue(value, parameter);
    const problem = GEOMETRIES[type](coordinates);
    if (problem) fail('invalid_query', parameter, `${parameter}: ${problem}`);
    return { [operator]: { $geometry: { type, coordinates } } };
  };
}

const distance = (v: unknown) => v === undefined || v === null || (isNumber(v) && v >= 0);

/** `[lng, lat, min?, max?]` (metres; `null` skips a bound) -> `$nearSphere`. */
function near(value: string, parameter: string) {
  const v = parseJsonValue(value, parameter);
  if (!Array.isArray(v) || v.length < 2 || v.length > 4) {
    fail('invalid_query', parameter, `${parameter}: expected [longitude, latitude, min?, max?]`);
  }
  const [lng, lat, min, max] = v as unknown[];
  const problem = position([lng, lat]);
  if (problem) fail('invalid_query', parameter, `${parameter}: ${problem}`);
  if (!distance(min) || !distance(max) || (isNumber(min) && isNumber(max) && max < min)) {
    fail('invalid_query', parameter, `${parameter}: distances must be numbers >= 0 (metres), max >= min`);
  }
  const $nearSphere: Record<string, unknown> = { $geometry: { type: 'Point', coordinates: [lng, lat] } };
  if (isNumber(min)) $nearSphere.$minDistance = min;
  if (isNumber(max)) $nearSphere.$maxDistance = max;
  return { $nearSphere };
}

/** `field:geo:<form>=<JSON>`: the form after `geo:` and the condition it compiles to. */
export const GEO_FORMS = {
  'ins:polygon': shape('$geoIntersects', 'Polygon'),
  'ins:multipolygon': shape('$geoIntersects', 'MultiPolygon'),
  'win:polygon': shape('$geoWithin', 'Polygon'),
  'win:multipolygon': shape('$geoWithin', 'MultiPolygon'),
  near,
} as const satisfies Record<string, (value: string, parameter: string) => Record<string, unknown>>;

export type GeoForm = keyof typeof GEO_FORMS;

export function isGeoForm(name: string): name is GeoForm {
  return Object.hasOwn(GEO_FORMS, name);
}
