import type { Document } from '@store/common';

/** The Earth radius MongoDB uses to turn metres into radians. */
const EARTH_RADIUS_METRES = 6_378_100;

const LOGICAL = new Set(['$and', '$or', '$nor']);

/** What a `2dsphere` index holds, so what `$nearSphere` without `$maxDistance` lists: not missing, `null` or `[]`. */
const located = (): Document => ({ $exists: true, $nin: [null, []] });

interface Near {
  centre: unknown;
  /** Radians. */
  min: number | undefined;
  max: number | undefined;
}

function isObject(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The centre and bounds of a `$nearSphere` / `$near` condition (GeoJSON: metres; legacy: radians). */
function readNear(condition: Document): Near | undefined {
  const near = condition.$nearSphere ?? condition.$near;
  if (isObject(near) && isObject(near.$geometry)) {
    const toRadians = (metres: unknown) =>
      typeof metres === 'number' ? metres / EARTH_RADIUS_METRES : undefined;
    return {
      centre: near.$geometry.coordinates,
      min: toRadians(near.$minDistance),
      max: toRadians(near.$maxDistance),
    };
  }
  if (Array.isArray(near) && condition.$nearSphere !== undefined) {
    const radians = (value: unknown) => (typeof value === 'number' ? value : undefined);
    return { centre: near, min: radians(condition.$minDistance), max: radians(condition.$maxDistance) };
  }
  return undefined;
}

function within(centre: unknown, radians: number): Document {
  return { $geoWithin: { $centerSphere: [centre, radians] } };
}

/** Replaces one field's near condition; returns the field condition and an exclusion for `$minDistance`. */
function rewriteField(field: string, condition: Document, near: Near): [Document, Document | undefined] {
  const rest = Object.fromEntries(
    Object.entries(condition).filter(
      ([op]) => !['$nearSphere', '$near', '$minDistance', '$maxDistance'].includes(op),
    ),
  );
  const bound = near.max === undefined ? located() : within(near.centre, near.max);
  const exclude =
    near.min === undefined || near.min <= 0
      ? undefined
      : { $nor: [{ [field]: within(near.centre, near.min) }] };
  return [{ ...rest, ...bound }, exclude];
}

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (!isObject(node)) return node;
  const out: Document = Object.create(null);
  const exclusions: Document[] = [];
  for (const [key, value] of Object.entries(node)) {
    const near = !key.startsWith('$') && isObject(value) ? readNear(value) : undefined;
    if (near && isObject(value)) {
      const [condition, exclude] = rewriteField(key, value, near);
      out[key] = condition;
      if (exclude) exclusions.push(exclude);
    } else {
      out[key] = LOGICAL.has(key) ? rewrite(value) : value;
    }
  }
  return exclusions.length > 0 ? { $and: [out, ...exclusions] } : out;
}

/**
 * A filter `countDocuments` accepts: MongoDB cannot count `$nearSphere` / `$near`, so each
 * becomes the equivalent `$geoWithin: { $centerSphere }` (minus the inner circle of a
 * `$minDistance`). The order is lost, which a count does not need.
 */
export function countableFilter(filter: Document): Document {
  return rewrite(filter) as Document;
}
