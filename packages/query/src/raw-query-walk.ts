import { isPlainObject } from '@store/common';
import { BSONRegExp } from 'bson';
import { dict } from './dict';
import { LIMITS } from './limits';
import { fail } from './query-error';
import { checkRegex } from './regex';

/** State of one `$query` walk. */
export interface WalkContext {
  parameter: string;
  /** `$near`/`$nearSphere` seen so far. */
  near: number;
  /** False inside `$or`, `$nor`, `$not`, `$elemMatch`, where MongoDB refuses `$near`. */
  nearAllowed: boolean;
}

/** Validates and rebuilds one part of a `$query`. */
export type Walk = (value: unknown, ctx: WalkContext, depth: number) => unknown;

/**
 * The `$query` allow-list (docs/query-language.md#query-the-allow-list). Any other `$` key, `$where`,
 * `$expr`, `$function`, `$accumulator`, `$text` included, is `forbidden_operator`.
 */
export const ALLOWED_OPERATORS: ReadonlySet<string> = new Set([
  ...['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$and', '$or', '$nor', '$not'],
  ...['$exists', '$type', '$size', '$all', '$elemMatch', '$regex', '$options', '$mod'],
  ...['$geoWithin', '$geoIntersects', '$near', '$nearSphere', '$geometry', '$box', '$polygon'],
  ...['$center', '$centerSphere', '$maxDistance', '$minDistance'],
]);

/** BSON values a literal may hold (Extended JSON `$oid`, `$numberDecimal`, ...). */
const LITERAL_BSON_TYPES = new Set([
  'ObjectId',
  'Decimal128',
  'Long',
  'Int32',
  'Double',
  'Binary',
  'Timestamp',
  'MinKey',
  'MaxKey',
]);

/** `forbidden_operator` for keys off the allow-list, `invalid_query` for allowed ones misplaced. */
export function rejectOperator(key: string, ctx: WalkContext, where: string): never {
  if (!ALLOWED_OPERATORS.has(key))
    fail('forbidden_operator', ctx.parameter, `${ctx.parameter}: operator ${key} is not allowed`);
  return fail('invalid_query', ctx.parameter, `${ctx.parameter}: ${key} is not valid ${where}`);
}

export function enter(depth: number, ctx: WalkContext): number {
  if (depth >= LIMITS.rawQueryDepth) {
    fail(
      'invalid_query',
      ctx.parameter,
      `${ctx.parameter}: nested deeper than ${LIMITS.rawQueryDepth} levels`,
    );
  }
  return depth + 1;
}

/** A BSON or JavaScript regex value as a validated RegExp (flags `im` only). */
export function toRegExp(value: BSONRegExp | RegExp, ctx: WalkContext): RegExp {
  const [pattern, flags] =
    value instanceof RegExp ? [value.source, value.flags] : [value.pattern, value.options];
  const re = checkRegex(pattern, flags, ctx.parameter);
  return new RegExp(re.source, re.flags);
}

/** A value compared with a field: scalars, dates, BSON values, arrays, embedded documents. */
export const walkLiteral: Walk = (value, ctx, depth) => {
  if (value instanceof BSONRegExp || value instanceof RegExp) return toRegExp(value, ctx);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const inner = enter(depth, ctx);
  if (Array.isArray(value)) return value.map((item) => walkLiteral(item, ctx, inner));
  const bsonType = (value as { _bsontype?: unknown })._bsontype;
  if (typeof bsonType === 'string' && LITERAL_BSON_TYPES.has(bsonType)) return value;
  if (!isPlainObject(value)) fail('invalid_query', ctx.parameter, `${ctx.parameter}: unsupported value type`);
  const out = dict();
  for (const key of Object.keys(value)) {
    if (key.startsWith('$')) rejectOperator(key, ctx, 'inside a value');
    if (key === '__proto__' || key.includes('\0'))
      fail('invalid_query', ctx.parameter, `${ctx.parameter}: invalid key`);
    out[key] = walkLiteral(value[key], ctx, inner);
  }
  return out;
};
