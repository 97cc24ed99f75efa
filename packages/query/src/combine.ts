import { isPlainObject } from '@store/common';
import { dict } from './dict';
import type { Filter } from './types';

const isOperatorObject = (v: unknown): v is Record<string, unknown> =>
  isPlainObject(v) && Object.keys(v).every((k) => k.startsWith('$')) && Object.keys(v).length > 0;

/** True when `a` and `b` are operator objects with no operator in common. */
function disjointOperators(a: unknown, b: unknown): boolean {
  if (!isOperatorObject(a) || !isOperatorObject(b)) return false;
  for (const k of Object.keys(b)) if (Object.hasOwn(a, k)) return false;
  return true;
}

/**
 * ANDs clauses into one filter. A key a previous clause did not use goes in flat; two
 * operator objects on one field with no operator in common merge (`{ $gt: 1, $lt: 5 }`);
 * top-level `$and` lists concatenate; anything else that collides goes into `$and`, so no
 * condition ever overwrites another. Clauses are not mutated.
 */
export function combineClauses(clauses: readonly Filter[]): Filter {
  const filter = dict();
  const rest: Filter[] = [];
  for (const clause of clauses) {
    for (const key of Object.keys(clause)) {
      const value = clause[key];
      const current = filter[key];
      if (current === undefined) {
        filter[key] = value;
      } else if (key === '$and' && Array.isArray(current) && Array.isArray(value)) {
        filter[key] = [...current, ...value];
      } else if (disjointOperators(current, value)) {
        filter[key] = Object.assign(dict(), current, value);
      } else {
        const single = dict();
        single[key] = value;
        rest.push(single);
      }
    }
  }
  if (rest.length > 0) filter.$and = [...((filter.$and as Filter[] | undefined) ?? []), ...rest];
  return filter;
}
