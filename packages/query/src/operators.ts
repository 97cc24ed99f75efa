import { COERCIONS, type CoercionName, equalityForms, toNumber } from './coerce';
import { fail } from './query-error';
import { checkRegex, escapeRegex, regexCondition } from './regex';

/** What a field is compared with: a literal (plain equality) or an operator object. */
export type Condition = unknown;

/** Compiles the values of one `field:<op>` parameter to conditions on the field, ANDed. */
type Build = (values: string[], coerce: CoercionName | undefined, parameter: string) => Condition[];

interface Operator {
  /** Whether `field:<op>:<coerce>` is allowed. */
  coercible: boolean;
  build: Build;
}

/** `value` coerced, or `invalid_query` naming the parameter. */
function coerceValue(value: string, coerce: CoercionName, parameter: string): unknown {
  const typed = COERCIONS[coerce].coerce(value);
  if (typed === undefined) {
    fail('invalid_query', parameter, `${parameter}: "${value}" is not ${COERCIONS[coerce].accepts}`);
  }
  return typed;
}

/** Every value equality matches: coerced when a suffix is given, else each value's forms. */
function forms(values: string[], coerce: CoercionName | undefined, parameter: string): unknown[] {
  if (coerce) return values.map((v) => coerceValue(v, coerce, parameter));
  return values.length === 1 ? equalityForms(values[0] as string) : values.flatMap(equalityForms);
}

/** Comparison operand: coerced, else the number a numeric-looking value reads as, else the string. */
function operand(value: string, coerce: CoercionName | undefined, parameter: string): unknown {
  return coerce ? coerceValue(value, coerce, parameter) : (toNumber(value) ?? value);
}

const compare =
  (op: string): Build =>
  (values, coerce, parameter) =>
    values.map((v) => ({ [op]: operand(v, coerce, parameter) }));

const textMatch =
  (before: string, after: string): Build =>
  (values, _coerce, parameter) =>
    values.map((v) => {
      if (v === '') fail('invalid_query', parameter, `${parameter}: value must not be empty`);
      return regexCondition(checkRegex(before + escapeRegex(v) + after, 'i', parameter));
    });

/**
 * `field:<op>=value`. Repeated values: `eq` (like plain equality) and `in` match any of
 * them, `ne` and `nin` none of them; every other operator ANDs one condition per value.
 */
export const OPERATORS = {
  eq: {
    coercible: true,
    build: (values, coerce, parameter) => {
      const all = forms(values, coerce, parameter);
      return [all.length === 1 ? all[0] : { $in: all }];
    },
  },
  ne: {
    coercible: true,
    build: (values, coerce, parameter) => {
      const all = forms(values, coerce, parameter);
      return [all.length === 1 ? { $ne: all[0] } : { $nin: all }];
    },
  },
  in: { coercible: true, build: (values, coerce, parameter) => [{ $in: forms(values, coerce, parameter) }] },
  nin: {
    coercible: true,
    build: (values, coerce, parameter) => [{ $nin: forms(values, coerce, parameter) }],
  },
  lt: { coercible: true, build: compare('$lt') },
  gt: { coercible: true, build: compare('$gt') },
  lte: { coercible: true, build: compare('$lte') },
  gte: { coercible: true, build: compare('$gte') },
  size: {
    coercible: false,
    build: (values, _coerce, parameter) =>
      values.map((v) => {
        if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) {
          fail('invalid_query', parameter, `${parameter}: "${v}" is not a non-negative integer`);
        }
        return { $size: Number(v) };
      }),
  },
  exists: {
    coercible: false,
    build: (values, _coerce, parameter) =>
      values.map((v) => {
        if (v !== 'true' && v !== 'false')
          fail('invalid_query', parameter, `${parameter}: "${v}" is not true or false`);
        return { $exists: v === 'true' };
      }),
  },
  contains: { coercible: false, build: textMatch('', '') },
  startsWith: { coercible: false, build: textMatch('^', '') },
  endsWith: { coercible: false, build: textMatch('', '$') },
} as const satisfies Record<string, Operator>;

export type OperatorName = keyof typeof OPERATORS;

export function isOperatorName(name: string): name is OperatorName {
  return Object.hasOwn(OPERATORS, name);
}
