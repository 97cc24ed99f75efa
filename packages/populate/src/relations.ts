import { isValidResourceName } from '@store/query';
import { PopulateError } from './error-codes';

/** Which way a relation goes: children of the page (`$populate`) or its parents (`$fill`). */
export type RelationKind = 'populate' | 'fill';

/** One relation asked for in a request, validated. */
export interface PlannedRelation {
  readonly name: string;
  readonly kind: RelationKind;
}

function namesOf(kind: RelationKind, raw: unknown): string[] {
  if (raw === undefined) return [];
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  for (const name of list) {
    if (!isValidResourceName(name)) {
      throw new PopulateError('invalid_relation', `$${kind} must name resources`, { parameter: `$${kind}` });
    }
  }
  return [...new Set(list as string[])];
}

/**
 * Validates the `$populate` / `$fill` lists of one request: resource names only, repeats
 * collapsed, at most `maxRelations` in all, and no name in both lists (both would write the
 * same field). Whether a name is a known, reachable resource is the caller's decision.
 */
export function planRelations(populate: unknown, fill: unknown, maxRelations: number): PlannedRelation[] {
  const children = namesOf('populate', populate);
  const parents = namesOf('fill', fill);
  const both = children.find((name) => parents.includes(name));
  if (both !== undefined) {
    throw new PopulateError('relation_conflict', 'a resource cannot be in both $populate and $fill', {
      resource: both,
    });
  }
  if (children.length + parents.length > maxRelations) {
    throw new PopulateError('too_many_relations', `at most ${maxRelations} relations per request`, {
      max: maxRelations,
    });
  }
  return [
    ...children.map((name) => ({ name, kind: 'populate' as const })),
    ...parents.map((name) => ({ name, kind: 'fill' as const })),
  ];
}
