import { isCoercionName } from './coerce';
import { dict } from './dict';
import { assertFieldName } from './field-name';
import { GEO_FORMS, isGeoForm } from './geo';
import { type Condition, isOperatorName, OPERATORS } from './operators';
import type { Param } from './parse';
import { fail } from './query-error';
import type { Filter } from './types';

/** Conditions of one `field[:modifiers]` parameter, ANDed, and whether one is a `$nearSphere`. */
export interface FieldFilter {
  clauses: Filter[];
  near: boolean;
}

function conditions({ key, values }: Param, modifiers: string[]): Condition[] {
  const [first, second, ...rest] = modifiers;
  if (first === undefined) return OPERATORS.eq.build(values, undefined, key);
  if (first === 'geo') {
    const form = modifiers.slice(1).join(':');
    if (!isGeoForm(form)) fail('invalid_query', key, `${key}: unknown geo form "${form}"`);
    if (form === 'near' && values.length > 1)
      fail('invalid_query', key, `${key}: only one geo:near is allowed`);
    return values.map((v) => GEO_FORMS[form](v, key));
  }
  if (isCoercionName(first) && second === undefined) return OPERATORS.eq.build(values, first, key);
  if (!isOperatorName(first)) fail('invalid_query', key, `${key}: unknown modifier "${first}"`);
  const op = OPERATORS[first];
  if (second !== undefined && (rest.length > 0 || !isCoercionName(second) || !op.coercible)) {
    fail(
      'invalid_query',
      key,
      `${key}: "${modifiers.slice(1).join(':')}" is not a valid coercion for ${first}`,
    );
  }
  return op.build(values, second as Parameters<typeof op.build>[1], key);
}

/**
 * Compiles `field=v`, `field:<coerce>=v`, `field:<op>[:<coerce>]=v` and the geo forms. Errors
 * name `label` (the parameter as sent: `$or[0][age:gt]` inside an OR group).
 */
export function compileFieldFilter(param: Param, label = param.key): FieldFilter {
  const [field, ...modifiers] = param.key.split(':');
  assertFieldName(field as string, label);
  const clauses = conditions({ key: label, values: param.values }, modifiers).map((condition) => {
    const clause = dict();
    clause[field as string] = condition;
    return clause;
  });
  return { clauses, near: modifiers[0] === 'geo' && modifiers[1] === 'near' };
}
