import { combineClauses } from './combine';
import { compileFieldFilter } from './field-filter';
import type { OrGroups } from './or-group-syntax';
import { fail } from './query-error';
import type { Filter } from './types';

/** One group as an AND of its field filters (the same compiler as top-level filters). */
function groupFilter(index: string, fields: Map<string, string[]>): Filter {
  const clauses: Filter[] = [];
  for (const [key, values] of fields) {
    const label = `$or[${index}][${key}]`;
    const { clauses: compiled, near } = compileFieldFilter({ key, values }, label);
    if (near) fail('invalid_query', label, `${label}: geo:near cannot be inside an OR group`);
    clauses.push(...compiled);
  }
  return combineClauses(clauses);
}

/** `{ $or: [group, ...] }` for the groups, or `undefined` when there are none. */
export function compileOrGroups(groups: OrGroups): Filter | undefined {
  if (groups.size === 0) return undefined;
  return { $or: [...groups].map(([index, fields]) => groupFilter(index, fields)) };
}
