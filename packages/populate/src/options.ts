import { invalidOption } from '@store/common';
import type { PopulateDocument } from './db';
import type { SingularOverrides } from './naming';
import { compileSort, type SortOrder } from './sort';

/** A filter, or a function of the request context (opaque to populate) returning one. */
export type RelationMatch<C = unknown> =
  | PopulateDocument
  | ((context: C) => PopulateDocument | Promise<PopulateDocument>);

/**
 * Server-side constraint on one relation, `population[<resource>][<relation>]`: applies to
 * what `<relation>` adds to documents of `<resource>`, by `$populate` or `$fill`.
 */
export interface RelationConstraint<C = unknown> {
  /** Extra filter ANDed into the relation's query. */
  match?: RelationMatch<C>;
  /** Sort keys, `-field` for descending (like `$sort`). `_id` always ends the sort. */
  sort?: string | readonly string[];
  /** `asc` / `desc`, one for all keys or one per key (like `$order`). */
  order?: SortOrder | readonly SortOrder[];
  /** At most this many related documents PER DOCUMENT (clamped to `perParentCap`). */
  limit?: number;
}

/** Options of `@store/populate`. Resolve once with {@link resolvePopulateOptions}. */
export interface PopulateOptions<C = unknown> {
  /** Singular form per resource where `pluralize` gets it wrong. @default {} */
  singular?: SingularOverrides;
  /**
   * Also join by `<singular>Id` / `<singular>Ids` (json-server's `postId`), besides
   * `<singular>_id` / `<singular>_ids`. @default false
   */
  camelCase?: boolean;
  /** Constraints: `population[<resource>][<relation>]`. @default {} */
  population?: Readonly<Record<string, Readonly<Record<string, RelationConstraint<C>>>>>;
  /** Most related documents attached to one document, whatever the constraint says. @default 1000 */
  perParentCap?: number;
  /** Most `$populate` + `$fill` names in one request. @default 10 */
  maxRelations?: number;
  /**
   * Batched queries per relation before falling back to one bounded query per starved
   * document (see README, "Caps"). @default 2
   */
  batchRounds?: number;
  /**
   * Most related documents one answer may carry, over every document and relation (a document
   * attached to two parents counts twice: it is sent twice). @default 10000
   */
  maxDocuments?: number;
}

/** A constraint with its sort compiled and its limit clamped. */
export interface ResolvedConstraint<C = unknown> {
  readonly match: RelationMatch<C> | undefined;
  readonly sort: Readonly<Record<string, 1 | -1>>;
  readonly limit: number;
}

/** Options after defaults and validation. Code downstream reads only these. */
export interface ResolvedPopulateOptions<C = unknown> {
  readonly singular: SingularOverrides;
  readonly camelCase: boolean;
  readonly perParentCap: number;
  readonly maxRelations: number;
  readonly batchRounds: number;
  readonly maxDocuments: number;
  /** Constraint for `relation` on `resource` (defaults: no match, `_id` order, the cap). */
  constraint(resource: string, relation: string): ResolvedConstraint<C>;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 1) {
    invalidOption(name, 'must be a positive integer');
  }
  return n;
}

const FIELD_SAFE = /^[A-Za-z0-9_-]{1,64}$/;

function resolveSingular(singular: SingularOverrides | undefined): SingularOverrides {
  const out: Record<string, string> = Object.create(null);
  for (const [resource, name] of Object.entries(singular ?? {})) {
    if (typeof name !== 'string' || !FIELD_SAFE.test(name)) {
      invalidOption(`singular.${resource}`, `must match ${FIELD_SAFE}`);
    }
    out[resource] = name;
  }
  return Object.freeze(out);
}

function resolveCamelCase(value: unknown): boolean {
  if (value !== undefined && typeof value !== 'boolean') invalidOption('camelCase', 'must be a boolean');
  return value ?? false;
}

function resolveConstraint<C>(path: string, raw: RelationConstraint<C>, cap: number): ResolvedConstraint<C> {
  if (typeof raw !== 'object' || raw === null) {
    invalidOption(path, 'must be an object');
  }
  const match = raw.match;
  if (match !== undefined && typeof match !== 'function' && (typeof match !== 'object' || match === null)) {
    invalidOption(`${path}.match`, 'must be a filter or a function');
  }
  const limit = Math.min(positiveInteger(`${path}.limit`, raw.limit, cap), cap);
  return Object.freeze({ match, sort: compileSort(path, raw.sort, raw.order), limit });
}

/** Applies defaults (with `??`), validates every option and fails fast naming it. */
export function resolvePopulateOptions<C = unknown>(
  options: PopulateOptions<C> = {},
): ResolvedPopulateOptions<C> {
  const perParentCap = positiveInteger('perParentCap', options.perParentCap, 1000);
  const table = new Map<string, ResolvedConstraint<C>>();
  for (const [resource, relations] of Object.entries(options.population ?? {})) {
    for (const [relation, raw] of Object.entries(relations ?? {})) {
      const path = `population.${resource}.${relation}`;
      table.set(`${resource}\u0000${relation}`, resolveConstraint(path, raw, perParentCap));
    }
  }
  const fallback: ResolvedConstraint<C> = Object.freeze({
    match: undefined,
    sort: compileSort('population', undefined, undefined),
    limit: perParentCap,
  });
  return Object.freeze({
    singular: resolveSingular(options.singular),
    camelCase: resolveCamelCase(options.camelCase),
    perParentCap,
    maxRelations: positiveInteger('maxRelations', options.maxRelations, 10),
    batchRounds: positiveInteger('batchRounds', options.batchRounds, 2),
    maxDocuments: positiveInteger('maxDocuments', options.maxDocuments, 10_000),
    constraint: (resource: string, relation: string) => table.get(`${resource}\u0000${relation}`) ?? fallback,
  });
}
