import { isValidResourceName } from '@store/query';
import { PopulateError } from './error-codes';

/** Which way a relation goes: children of the page (`$populate`) or its parents (`$fill`). */
export type RelationKind = 'populate' | 'fill';

/** Most levels of one `$populate` / `$fill` path (`employees.tasks.notes` is 3). */
export const MAX_RELATION_DEPTH = 3;

/**
 * One relation asked for in a request, validated: `employees` in `$populate=employees.tasks`,
 * with `tasks` (the same kind, one level further) as its only relation.
 */
export interface PlannedRelation {
  readonly name: string;
  readonly kind: RelationKind;
  /** Relations of the related documents (`tasks` of each employee). */
  readonly relations: readonly PlannedRelation[];
}

interface Node {
  name: string;
  kind: RelationKind;
  relations: Node[];
}

function pathsOf(kind: RelationKind, raw: unknown): string[][] {
  if (raw === undefined) return [];
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  return list.map((path) => {
    const names = typeof path === 'string' ? path.split('.') : [];
    if (names.length === 0 || !names.every(isValidResourceName)) {
      throw new PopulateError(
        'invalid_relation',
        `$${kind} must name resources (a.b for one level further)`,
        {
          parameter: `$${kind}`,
        },
      );
    }
    if (names.length > MAX_RELATION_DEPTH) {
      throw new PopulateError(
        'invalid_relation',
        `$${kind}: at most ${MAX_RELATION_DEPTH} levels ("${path}")`,
        {
          parameter: `$${kind}`,
          max: MAX_RELATION_DEPTH,
        },
      );
    }
    return names;
  });
}

/** Merges paths into trees (`a`, `a.b`, `a.c` is `a` with `b` and `c`), in request order. */
function treesOf(kind: RelationKind, paths: string[][]): Node[] {
  const roots: Node[] = [];
  for (const path of paths) {
    let level = roots;
    for (const name of path) {
      let node = level.find((each) => each.name === name);
      if (!node) {
        node = { name, kind, relations: [] };
        level.push(node);
      }
      level = node.relations;
    }
  }
  return roots;
}

const countOf = (nodes: readonly Node[]): number =>
  nodes.reduce((sum, node) => sum + 1 + countOf(node.relations), 0);

/**
 * Validates the `$populate` / `$fill` lists of one request: resource names or dotted paths of
 * at most {@link MAX_RELATION_DEPTH} of them, repeats merged, at most `maxRelations` relations
 * at all levels together, and no name in both lists at the first level (both would write the
 * same field). Whether a name is a known, reachable resource is the caller's decision.
 */
export function planRelations(populate: unknown, fill: unknown, maxRelations: number): PlannedRelation[] {
  const children = treesOf('populate', pathsOf('populate', populate));
  const parents = treesOf('fill', pathsOf('fill', fill));
  const both = children.find((child) => parents.some((parent) => parent.name === child.name));
  if (both !== undefined) {
    throw new PopulateError('relation_conflict', 'a resource cannot be in both $populate and $fill', {
      resource: both.name,
    });
  }
  if (countOf(children) + countOf(parents) > maxRelations) {
    throw new PopulateError('too_many_relations', `at most ${maxRelations} relations per request`, {
      max: maxRelations,
    });
  }
  return [...children, ...parents];
}

/** Every relation of `planned` at every level, each once per place it appears. */
export function allRelations(planned: readonly PlannedRelation[]): PlannedRelation[] {
  return planned.flatMap((relation) => [relation, ...allRelations(relation.relations)]);
}
