import { isPlainObject } from '@store/common';
import { fail } from './query-error';
import type { QueryState } from './reserved';

const NEAR_OPERATORS = ['$near', '$nearSphere'];

/** The top-level fields of `filter` whose condition is a `$near` / `$nearSphere`. */
function nearFields(filter: Record<string, unknown>): string[] {
  return Object.keys(filter).filter((field) => {
    const condition = filter[field];
    return isPlainObject(condition) && NEAR_OPERATORS.some((op) => Object.hasOwn(condition, op));
  });
}

/**
 * What MongoDB refuses around `$near` / `$nearSphere` (`geo:near`, or in `$query`), refused
 * here on both engines: a second one in one query; `$search` with one (a query cannot have
 * both `$text` and `$near`); another condition on the same field (MongoDB reads only the
 * `$near` of a field's operators, and refuses the rest).
 */
export function checkNear(state: QueryState): void {
  const [, second] = state.nearBy;
  if (second !== undefined) {
    fail('invalid_query', second, `${second}: only one $near/$nearSphere (geo:near) is allowed per query`);
  }
  const [near] = state.nearBy;
  if (near === undefined) return;
  if (state.search !== undefined) {
    fail(
      'invalid_query',
      '$search',
      `$search: cannot be combined with ${near} (MongoDB refuses a query with both $text and $near): drop one, or narrow by area with geo:win`,
    );
  }
  for (const { parameter, filter } of state.clauses) {
    for (const field of nearFields(filter)) {
      const other = state.clauses.find((c) => c.filter !== filter && Object.hasOwn(c.filter, field));
      if (other === undefined) continue;
      fail(
        'invalid_query',
        other.parameter,
        `${other.parameter}: "${field}" already has a $near/$nearSphere (${parameter}), and MongoDB takes no other condition on that field in the same query`,
      );
    }
  }
}
