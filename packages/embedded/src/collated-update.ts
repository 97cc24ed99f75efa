/**
 * What a collation changes in an update besides its filter: MongoDB compares strings by the
 * operation's collation in `$addToSet`, `$pull`, `$pullAll`, `$min`, `$max`, `$push`'s `$sort`,
 * `arrayFilters` and the expressions of an update pipeline. The engine's updater compares them
 * binary, so such an update under a (non-simple) collation is refused by name (NotImplemented),
 * unless no string takes part (an operand holding no string compares alike under any collation;
 * a `$push` `$sort` orders the strings already stored, so it is refused whenever it is given).
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { holdsString, parseCollation } from './collation';
import { EmbeddedDbError } from './errors';

/** Update operators whose operand values are compared with stored values. */
const COMPARING = ['$addToSet', '$pull', '$pullAll', '$min', '$max'] as const;

function refuse(what: string): never {
  throw new EmbeddedDbError(
    'NotImplemented',
    `${what} under a collation is not supported by the embedded engine (it compares strings binary)`,
  );
}

/** Whether a `$push` of `update` sorts the array (`{ $each, $sort }`). */
function pushSorts(update: Document): boolean {
  const push = update.$push;
  if (!isPlainObject(push)) return false;
  return Object.values(push).some((value) => isPlainObject(value) && Object.hasOwn(value, '$sort'));
}

/**
 * Refuses `update` (an operator document, a pipeline or a replacement) with `options`' collation
 * and `arrayFilters` when the collation would change what it does: see the module comment.
 */
export function checkCollatedUpdate(
  update: unknown,
  options: { collation?: unknown; arrayFilters?: unknown } | undefined,
): void {
  if (parseCollation(options?.collation) === undefined) return;
  if (holdsString(options?.arrayFilters)) refuse('arrayFilters comparing strings');
  if (Array.isArray(update)) {
    if (holdsString(update)) refuse('an update pipeline');
    return;
  }
  if (!isPlainObject(update)) return;
  for (const operator of COMPARING) {
    if (Object.hasOwn(update, operator) && holdsString(update[operator])) refuse(`${operator} of a string`);
  }
  if (pushSorts(update)) refuse('$push with $sort');
}
