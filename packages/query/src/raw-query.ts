import { EJSON } from 'bson';
import { LIMITS } from './limits';
import { fail } from './query-error';
import { walkFilter } from './raw-query-operators';
import type { WalkContext } from './raw-query-walk';
import type { Filter } from './types';

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
