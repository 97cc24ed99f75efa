/**
 * `arrayFilters` of an update, checked as MongoDB checks them before it touches a document:
 * each filter an object naming one identifier (a lowercase letter, then letters and digits),
 * no identifier filtered twice, every `$[<identifier>]` of the update with its filter and every
 * filter used by the update.
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { EJSON } from 'bson';
import { EmbeddedDbError } from './errors';

const IDENTIFIER = /^[a-z][a-zA-Z0-9]*$/;
const LOGICAL = new Set(['$and', '$or', '$nor']);

/** The identifier a filter names (its top-level fields' first segment, through `$and` / `$or` / `$nor`). */
function identifiersOf(filter: Document, found: Set<string>): Set<string> {
  for (const [key, value] of Object.entries(filter)) {
    if (LOGICAL.has(key) && Array.isArray(value)) {
      for (const clause of value) if (isPlainObject(clause)) identifiersOf(clause, found);
    } else if (!key.startsWith('$')) found.add(key.split('.')[0] as string);
  }
  return found;
}

/** The identifier of one array filter; refuses a filter that names none, several, or a malformed one. */
function identifierOf(filter: unknown): string {
  if (!isPlainObject(filter))
    throw new EmbeddedDbError('FailedToParse', 'arrayFilters entries must be objects');
  const names = [...identifiersOf(filter, new Set())];
  if (names.length === 0) {
    throw new EmbeddedDbError(
      'FailedToParse',
      'Cannot use an expression without a top-level field name in arrayFilters',
    );
  }
  if (names.length > 1) {
    throw new EmbeddedDbError(
      'FailedToParse',
      `Error parsing array filter :: caused by :: Expected a single top-level field name, found '${names[0]}' and '${names[1]}'`,
    );
  }
  const [name] = names as [string];
  if (!IDENTIFIER.test(name)) {
    throw new EmbeddedDbError(
      'BadValue',
      `Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '${name}'`,
    );
  }
  return name;
}

/** The paths an operator update writes (and `$rename` targets). */
function pathsOf(update: Record<string, Document>): string[] {
  const paths: string[] = [];
  for (const [operator, operand] of Object.entries(update)) {
    paths.push(...Object.keys(operand));
    if (operator === '$rename') paths.push(...Object.values(operand).map(String));
  }
  return paths;
}

/** Checks `arrayFilters` against an operator update (validated); refuses them with a pipeline. */
export function checkArrayFilters(
  update: Record<string, Document> | Document[],
  arrayFilters: unknown,
): void {
  if (arrayFilters === undefined) return;
  if (!Array.isArray(arrayFilters))
    throw new EmbeddedDbError('FailedToParse', 'arrayFilters must be an array');
  if (Array.isArray(update)) {
    if (arrayFilters.length === 0) return;
    throw new EmbeddedDbError(
      'FailedToParse',
      'arrayFilters may not be specified for pipeline-style updates',
    );
  }
  const filtered = new Set<string>();
  for (const filter of arrayFilters) {
    const name = identifierOf(filter);
    if (filtered.has(name)) {
      throw new EmbeddedDbError(
        'FailedToParse',
        `Found multiple array filters with the same top-level field name ${name}`,
      );
    }
    filtered.add(name);
  }
  const used = new Set<string>();
  for (const path of pathsOf(update)) {
    for (const [, name] of path.matchAll(/\$\[([^\]]*)\]/g)) {
      if (name === '' || name === undefined) continue;
      if (!filtered.has(name)) {
        throw new EmbeddedDbError(
          'BadValue',
          `No array filter found for identifier '${name}' in path '${path}'`,
        );
      }
      used.add(name);
    }
  }
  for (const name of filtered) {
    if (!used.has(name)) {
      throw new EmbeddedDbError(
        'FailedToParse',
        `The array filter for identifier '${name}' was not used in the update ${EJSON.stringify(update)}`,
      );
    }
  }
}
