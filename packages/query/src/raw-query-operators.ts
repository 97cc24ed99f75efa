import { isPlainObject } from '@store/common';
import { BSONRegExp } from 'bson';
import { dict } from './dict';
import { fieldNameProblem } from './field-name';
import { geometryProblem } from './geo';
import { fail } from './query-error';
import { enter, rejectOperator, toRegExp, type Walk, type WalkContext, walkLiteral } from './raw-query-walk';
import { checkRegex } from './regex';

const TYPE_ALIASES = new Set([
  ...['double', 'string', 'object', 'array', 'binData', 'undefined', 'objectId', 'bool', 'date', 'null'],
  ...[
    'regex',
    'dbPointer',
    'javascript',
    'symbol',
    'int',
    'timestamp',
    'long',
    'decimal',
    'minKey',
    'maxKey',
  ],
  'number',
]);
const TYPE_CODES = new Set([-1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 127]);

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function invalid(ctx: WalkContext, what: string): never {
  return fail('invalid_query', ctx.parameter, `${ctx.parameter}: ${what}`);
}

/** A literal that is not a regex (`$ne`, `$gt`, ...: MongoDB refuses regexes there). */
const comparable =
  (op: string): Walk =>
  (v, ctx, depth) => {
    if (v instanceof BSONRegExp) invalid(ctx, `${op} does not take a regex`);
    return walkLiteral(v, ctx, depth);
  };

const list =
  (op: string): Walk =>
  (v, ctx, depth) => {
    if (!Array.isArray(v)) invalid(ctx, `${op} takes an array`);
    return walkLiteral(v, ctx, depth);
  };

const typeName = (t: unknown) => (typeof t === 'string' ? TYPE_ALIASES.has(t) : TYPE_CODES.has(t as number));

/** Runs `walk` where MongoDB refuses `$near` (inside `$not`, `$elemMatch`, `$or`, `$nor`). */
function withoutNear(ctx: WalkContext, walk: () => unknown): unknown {
  const saved = ctx.nearAllowed;
  ctx.nearAllowed = false;
  const out = walk();
  ctx.nearAllowed = saved;
  return out;
}

const positionPair = (v: unknown) => Array.isArray(v) && v.length === 2 && v.every(isNumber);

/** The `$geoWithin` shapes: `$geometry` (Polygon, MultiPolygon) or a legacy shape. */
const WITHIN_SHAPES: Record<string, (v: unknown) => boolean> = {
  $geometry: (v) =>
    isPlainObject(v) &&
    (v.type === 'Polygon' || v.type === 'MultiPolygon') &&
    geometryProblem(v) === undefined,
  $box: (v) => Array.isArray(v) && v.length === 2 && v.every(positionPair),
  $polygon: (v) => Array.isArray(v) && v.length >= 3 && v.every(positionPair),
  $center: (v) => Array.isArray(v) && v.length === 2 && positionPair(v[0]) && isNumber(v[1]) && v[1] >= 0,
  $centerSphere: (v) =>
    Array.isArray(v) && v.length === 2 && positionPair(v[0]) && isNumber(v[1]) && v[1] >= 0,
};

function geoShape(op: string, shapes: Record<string, (v: unknown) => boolean>): Walk {
  return (v, ctx) => {
    const keys = isPlainObject(v) ? Object.keys(v) : [];
    const key = keys[0];
    if (keys.length !== 1 || key === undefined) return invalid(ctx, `${op} takes one shape`);
    const check = Object.hasOwn(shapes, key) ? shapes[key] : undefined;
    if (!check) return rejectOperator(key, ctx, `inside ${op}`);
    const shape = (v as Record<string, unknown>)[key];
    if (!check(shape)) invalid(ctx, `${op}: invalid ${key}`);
    return { [key]: structuredClone(shape) };
  };
}

const INTERSECT_SHAPES = { $geometry: (v: unknown) => geometryProblem(v) === undefined };

/**
 * `$near`/`$nearSphere`: `{ $geometry: Point, $minDistance?, $maxDistance? }` (metres), or a
 * legacy `[lng, lat]` for `$nearSphere`, completed by {@link finishNear}. A legacy `$near`
 * needs a `2d` index, which the store never creates: MongoDB would refuse it.
 */
const near =
  (op: string): Walk =>
  (v, ctx) => {
    if (!ctx.nearAllowed) invalid(ctx, `${op} is not allowed inside $or, $nor, $not or $elemMatch`);
    ctx.near++;
    if (Array.isArray(v)) {
      if (op === '$near') {
        invalid(
          ctx,
          '$near: [x, y] needs a 2d index, which the store does not create: write {"$near": {"$geometry": {"type": "Point", "coordinates": [lng, lat]}, "$maxDistance": <metres>}}',
        );
      }
      const problem = geometryProblem({ type: 'Point', coordinates: v });
      if (problem) invalid(ctx, `${op}: ${problem}`);
      return [...(v as number[])];
    }
    if (!isPlainObject(v)) return invalid(ctx, `${op} takes a point`);
    const { $geometry, $minDistance, $maxDistance, ...rest } = v;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) rejectOperator(extra, ctx, `inside ${op}`);
    if (!isPlainObject($geometry) || $geometry.type !== 'Point' || geometryProblem($geometry)) {
      invalid(ctx, `${op} takes { $geometry: { type: "Point", coordinates } }`);
    }
    const out: Record<string, unknown> = { $geometry: structuredClone($geometry) };
    for (const [k, d] of [
      ['$minDistance', $minDistance],
      ['$maxDistance', $maxDistance],
    ] as const) {
      if (d === undefined) continue;
      if (!isNumber(d) || d < 0) invalid(ctx, `${k} must be a number >= 0`);
      out[k] = d;
    }
    return out;
  };

/** Operators allowed on a field inside `$query`, each with the validator of its argument. */
export const RAW_OPERATORS = {
  $eq: (v, ctx, d) => walkLiteral(v, ctx, d),
  $ne: comparable('$ne'),
  $gt: comparable('$gt'),
  $gte: comparable('$gte'),
  $lt: comparable('$lt'),
  $lte: comparable('$lte'),
  $in: list('$in'),
  $nin: list('$nin'),
  $all: list('$all'),
  $exists: (v, ctx) =>
    typeof v === 'boolean' || isNumber(v) ? v : invalid(ctx, '$exists takes true or false'),
  $type: (v, ctx) => {
    const ok = Array.isArray(v) ? v.length > 0 && v.every(typeName) : typeName(v);
    return ok ? (Array.isArray(v) ? [...v] : v) : invalid(ctx, '$type takes a BSON type alias or number');
  },
  $size: (v, ctx) =>
    Number.isSafeInteger(v) && (v as number) >= 0 ? v : invalid(ctx, '$size takes an integer >= 0'),
  $mod: (v, ctx) => {
    const ok = Array.isArray(v) && v.length === 2 && v.every(isNumber) && Math.trunc(v[0] as number) !== 0;
    return ok ? [...v] : invalid(ctx, '$mod takes [divisor, remainder] with a non-zero divisor');
  },
  // Checked with its `$options` by walkOperators' finishRegex.
  $regex: (v) => v,
  $not: (v, ctx, d) => {
    if (v instanceof BSONRegExp) return toRegExp(v, ctx);
    if (!isPlainObject(v) || !Object.keys(v).every((k) => k.startsWith('$'))) {
      return invalid(ctx, '$not takes a regex or an object of operators');
    }
    return withoutNear(ctx, () => walkOperators(v, ctx, d));
  },
  $elemMatch: (v, ctx, d) => {
    if (!isPlainObject(v) || Object.keys(v).length === 0) return invalid(ctx, '$elemMatch takes an object');
    const operators = Object.keys(v).every(
      (k) => k.startsWith('$') && k !== '$and' && k !== '$or' && k !== '$nor',
    );
    return withoutNear(ctx, () => (operators ? walkOperators(v, ctx, d) : walkFilter(v, ctx, d)));
  },
  $geoWithin: geoShape('$geoWithin', WITHIN_SHAPES),
  $geoIntersects: geoShape('$geoIntersects', INTERSECT_SHAPES),
  $near: near('$near'),
  $nearSphere: near('$nearSphere'),
} as const satisfies Record<string, Walk>;

/** What a field is matched against: a literal, or an object of operators. */
const walkCondition: Walk = (value, ctx, depth) => {
  if (!isPlainObject(value)) return walkLiteral(value, ctx, depth);
  const keys = Object.keys(value);
  const operators = keys.filter((k) => k.startsWith('$')).length;
  if (operators === 0) return walkLiteral(value, ctx, depth);
  if (operators !== keys.length) {
    fail('invalid_query', ctx.parameter, `${ctx.parameter}: an object cannot mix operators and field names`);
  }
  return walkOperators(value, ctx, depth);
};

/** `{ $gt: 1, $lt: 5 }`: each operator through its validator in {@link RAW_OPERATORS}. */
const walkOperators: Walk = (value, ctx, depth) => {
  if (!isPlainObject(value) || Object.keys(value).length === 0) {
    fail('invalid_query', ctx.parameter, `${ctx.parameter}: expected an object of operators`);
  }
  const inner = enter(depth, ctx);
  const out = dict();
  for (const key of Object.keys(value)) {
    if (key === '$options' || key === '$maxDistance' || key === '$minDistance') continue;
    const walk = Object.hasOwn(RAW_OPERATORS, key)
      ? RAW_OPERATORS[key as keyof typeof RAW_OPERATORS]
      : undefined;
    if (!walk) rejectOperator(key, ctx, 'on a field');
    out[key] = walk(value[key], ctx, inner);
  }
  finishRegex(value, out, ctx);
  finishNear(value, out, ctx);
  return out;
};

/** `$regex` (string or regex) with its optional `$options`, as `{ $regex, $options }` strings. */
function finishRegex(source: Record<string, unknown>, out: Record<string, unknown>, ctx: WalkContext): void {
  const { $regex: pattern, $options: options } = source;
  if (pattern === undefined) {
    if (options !== undefined)
      fail('invalid_query', ctx.parameter, `${ctx.parameter}: $options needs a $regex`);
    return;
  }
  if (options !== undefined && typeof options !== 'string') {
    fail('invalid_query', ctx.parameter, `${ctx.parameter}: $options must be a string`);
  }
  const [p, f] = pattern instanceof BSONRegExp ? [pattern.pattern, pattern.options] : [pattern, ''];
  if (typeof p !== 'string')
    fail('invalid_query', ctx.parameter, `${ctx.parameter}: $regex must be a string`);
  const re = checkRegex(p, [...new Set(f + (options ?? ''))].join(''), ctx.parameter);
  out.$regex = re.source;
  if (re.flags) out.$options = re.flags;
}

/** The Earth radius MongoDB uses between radians (legacy distances) and metres. */
const EARTH_RADIUS_METRES = 6_378_100;

/**
 * Legacy `{ $nearSphere: [lng, lat], $minDistance?, $maxDistance? }` (radians) becomes the
 * GeoJSON form (metres), which both engines read alike; distance siblings of a GeoJSON
 * `$nearSphere`, or any other operator beside a `$near`/`$nearSphere`, MongoDB refuses.
 */
function finishNear(source: Record<string, unknown>, out: Record<string, unknown>, ctx: WalkContext): void {
  const op = ['$near', '$nearSphere'].find((k) => out[k] !== undefined);
  const legacy = op !== undefined && Array.isArray(out[op]);
  for (const key of ['$minDistance', '$maxDistance']) {
    const v = source[key];
    if (v === undefined) continue;
    if (op === undefined) rejectOperator(key, ctx, 'without $near');
    if (!legacy) invalid(ctx, `${key} goes inside ${op} with $geometry (in metres), not beside it`);
    if (typeof v !== 'number' || !(v >= 0)) invalid(ctx, `${key} must be >= 0`);
  }
  if (op === undefined) return;
  const other = Object.keys(out).find((k) => k !== op);
  if (other !== undefined) {
    invalid(ctx, `${other} cannot sit beside ${op}: MongoDB takes no other condition on a ${op} field`);
  }
  if (!legacy) return;
  const near: Record<string, unknown> = { $geometry: { type: 'Point', coordinates: out[op] } };
  for (const key of ['$minDistance', '$maxDistance']) {
    const radians = source[key];
    if (typeof radians === 'number') near[key] = radians * EARTH_RADIUS_METRES;
  }
  out[op] = near;
}

/** A filter document: field conditions and `$and`/`$or`/`$nor`. */
export const walkFilter: Walk = (value, ctx, depth) => {
  if (!isPlainObject(value))
    return fail('invalid_query', ctx.parameter, `${ctx.parameter}: expected a JSON object`);
  const inner = enter(depth, ctx);
  const out = dict();
  for (const key of Object.keys(value)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      const list = value[key];
      if (!Array.isArray(list) || list.length === 0) {
        fail('invalid_query', ctx.parameter, `${ctx.parameter}: ${key} takes a non-empty array`);
      }
      const nearAllowed = ctx.nearAllowed;
      ctx.nearAllowed = nearAllowed && key === '$and';
      const listDepth = enter(inner, ctx);
      out[key] = list.map((item) => walkFilter(item, ctx, listDepth));
      ctx.nearAllowed = nearAllowed;
    } else if (key.startsWith('$')) {
      rejectOperator(key, ctx, 'at the top of a filter');
    } else {
      const problem = fieldNameProblem(key);
      if (problem) fail('invalid_query', ctx.parameter, `${ctx.parameter}: field name "${key}" ${problem}`);
      out[key] = walkCondition(value[key], ctx, inner);
    }
  }
  return out;
};
