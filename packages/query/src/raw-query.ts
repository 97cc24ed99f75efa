import { BSONRegExp, EJSON } from 'bson';
import { isPlainObject } from '@store/common';
import { dict } from './dict';
import { fieldNameProblem } from './field-name';
import { LIMITS } from './limits';
import { fail } from './query-error';
import { ALLOWED_OPERATORS, RAW_OPERATORS, type Walk } from './raw-query-operators';
import { checkRegex } from './regex';
import type { Filter } from './types';

/** State of one `$query` walk. */
export interface WalkContext {
  parameter: string;
  /** `$near`/`$nearSphere` seen so far. */
  near: number;
  /** False inside `$or`, `$nor`, `$not`, `$elemMatch`, where MongoDB refuses `$near`. */
  nearAllowed: boolean;
}

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

/** What a field is matched against: a literal, or an object of operators. */
export const walkCondition: Walk = (value, ctx, depth) => {
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
export const walkOperators: Walk = (value, ctx, depth) => {
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

/** Legacy `{ $near: [x, y], $maxDistance }`: the distance siblings need a `$near`/`$nearSphere`. */
function finishNear(source: Record<string, unknown>, out: Record<string, unknown>, ctx: WalkContext): void {
  for (const key of ['$minDistance', '$maxDistance']) {
    const v = source[key];
    if (v === undefined) continue;
    if (out.$near === undefined && out.$nearSphere === undefined) rejectOperator(key, ctx, 'without $near');
    if (typeof v !== 'number' || !(v >= 0))
      fail('invalid_query', ctx.parameter, `${ctx.parameter}: ${key} must be >= 0`);
    out[key] = v;
  }
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

/**
 * Parses one `$query` value (JSON or relaxed Extended JSON, at most 4096 characters) and
 * rebuilds it through the allow-list walker: prototype-free, depth-bounded, every operator
 * and regex checked. Returns the filter and how many `$near`/`$nearSphere` it holds.
 */
export function compileRawQuery(text: string, parameter: string): { filter: Filter; near: number } {
  if (text.length > LIMITS.rawQueryLength) {
    fail('invalid_query', parameter, `${parameter}: longer than ${LIMITS.rawQueryLength} characters`);
  }
  let parsed: unknown;
  try {
    parsed = EJSON.parse(text, { relaxed: true });
  } catch {
    return fail('invalid_query', parameter, `${parameter}: not valid JSON or Extended JSON`);
  }
  const ctx: WalkContext = { parameter, near: 0, nearAllowed: true };
  const filter = walkFilter(parsed, ctx, 0) as Filter;
  return { filter, near: ctx.near };
}
