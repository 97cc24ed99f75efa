/**
 * Variables of a pipeline bound into a `$match` filter (which the engine's filter compiler reads
 * without variables). The `let` option itself is evaluated as every operation's is (write-options.ts).
 */

import type { Document } from '@store/common';
import { isPlainObject, setOwn } from '@store/common';
import { resolve } from '../mingo';

const SYSTEM_VARIABLES: ReadonlySet<string> = new Set([
  'NOW',
  'CLUSTER_TIME',
  'ROOT',
  'CURRENT',
  'REMOVE',
  'DESCEND',
  'PRUNE',
  'KEEP',
  'SEARCH_META',
  'USER_ROLES',
]);

/**
 * `expr` (an aggregation expression) with the variables of `variables` it reads replaced by
 * their values (as literals), except where an inner `$let`, `$map`, `$filter` or `$reduce`
 * binds the same name: a `$match` is compiled by the engine's filter compiler, which knows no
 * variables.
 */
function bindExpression(expr: unknown, variables: Document, shadowed: ReadonlySet<string>): unknown {
  if (typeof expr === 'string') {
    if (!expr.startsWith('$$')) return expr;
    const dot = expr.indexOf('.');
    const name = expr.slice(2, dot === -1 ? undefined : dot);
    if (shadowed.has(name) || SYSTEM_VARIABLES.has(name) || !Object.hasOwn(variables, name)) return expr;
    const value = dot === -1 ? variables[name] : resolve(variables[name] as Document, expr.slice(dot + 1));
    return value === undefined ? '$$REMOVE' : { $literal: value };
  }
  if (Array.isArray(expr)) return expr.map((item) => bindExpression(item, variables, shadowed));
  if (!isPlainObject(expr)) return expr;
  const [operator] = Object.keys(expr);
  const argument = operator === undefined ? undefined : expr[operator];
  const within = (names: string[]) => new Set([...shadowed, ...names]);
  if (operator === '$literal') return expr;
  if (operator === '$let' && isPlainObject(argument) && isPlainObject(argument.vars)) {
    const vars = argument.vars;
    return {
      $let: {
        vars: bindExpression(vars, variables, shadowed),
        in: bindExpression(argument.in, variables, within(Object.keys(vars))),
      },
    };
  }
  if ((operator === '$map' || operator === '$filter') && isPlainObject(argument)) {
    const bound = within([typeof argument.as === 'string' ? argument.as : 'this']);
    const out: Document = {};
    for (const [key, value] of Object.entries(argument)) {
      const inner = key === 'in' || key === 'cond';
      setOwn(out, key, bindExpression(value, variables, inner ? bound : shadowed));
    }
    return { [operator]: out };
  }
  if (operator === '$reduce' && isPlainObject(argument)) {
    const out: Document = {};
    for (const [key, value] of Object.entries(argument)) {
      setOwn(out, key, bindExpression(value, variables, key === 'in' ? within(['value', 'this']) : shadowed));
    }
    return { $reduce: out };
  }
  const out: Document = {};
  for (const [key, value] of Object.entries(expr))
    setOwn(out, key, bindExpression(value, variables, shadowed));
  return out;
}

/** A `$match` filter with the pipeline's variables bound in its `$expr` clauses. */
export function bindFilter(filter: Document, variables: Document): Document {
  if (Object.keys(variables).length === 0) return filter;
  const out: Document = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$expr') setOwn(out, key, bindExpression(value, variables, new Set()));
    else if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) {
      setOwn(
        out,
        key,
        value.map((clause) => (isPlainObject(clause) ? bindFilter(clause, variables) : clause)),
      );
    } else setOwn(out, key, value);
  }
  return out;
}
