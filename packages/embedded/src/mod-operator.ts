/**
 * `$mod` as MongoDB evaluates it: only numeric values match (mingo's own `$mod` lets
 * JavaScript coerce `"40"`, `null` and `false` into numbers), each side truncated toward zero.
 */
import { EmbeddedDbError } from './errors';
import type { FieldOperator } from './geo-operators';
import { valuesAtPath } from './paths';

const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** `{ field: { $mod: [divisor, remainder] } }`. */
export const mod: FieldOperator = (field, operand) => {
  if (!Array.isArray(operand) || operand.length !== 2 || !operand.every(isFiniteNumber)) {
    throw new EmbeddedDbError('BadValue', '$mod needs [divisor, remainder] as two numbers');
  }
  const [divisor, remainder] = operand.map(Math.trunc) as [number, number];
  if (divisor === 0) throw new EmbeddedDbError('BadValue', '$mod divisor cannot be 0');
  return (doc) =>
    valuesAtPath(doc, field, true).some(
      (value) => isFiniteNumber(value) && Math.trunc(value) % divisor === remainder,
    );
};
