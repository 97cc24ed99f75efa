import {
  type RelationConstraint,
  type ResolvedPopulateOptions,
  resolvePopulateOptions,
} from '@store/populate';
import { isValidResourceName } from '@store/query';
import type { RequestContext } from './context';
import { checkKeys, invalidOption, isOptionError, isPlainObject } from '@store/common';

/** Store-wide options of `$populate`, `$fill` and nested routes: `createStore({ populate })`. */
export interface PopulateConfig {
  /**
   * Most related documents added to one document, whatever a constraint's `limit` says, so one
   * parent with a million children cannot exhaust memory. The rest is reachable through the
   * nested route, with paging.
   * @default 1000
   */
  perParentCap?: number;
  /**
   * Most `$populate` + `$fill` names in one request (more is a 400 `too_many_relations`).
   * @default 10
   */
  maxRelations?: number;
  /**
   * Batched queries per relation before one bounded query per crowded document (see
   * `@store/populate`, "Caps").
   * @default 2
   */
  batchRounds?: number;
}

/**
 * Server-side constraint on one relation, `resources.<resource>.population.<relation>`:
 * `{ match, sort, order, limit }`, `match` a filter or a function of the request context.
 */
export type PopulationConstraint = RelationConstraint<RequestContext>;

/** A relation declared under `population`: its reference fields are indexed at start-up. */
export interface DeclaredRelation {
  /** The resource whose `population` declares it (the parent, read as `$populate`). */
  readonly resource: string;
  /** The related resource (the key under `population`). */
  readonly relation: string;
}

/** What `resolveRelationOptions` gives the resolved store options. */
export interface ResolvedRelationOptions {
  readonly populate: ResolvedPopulateOptions<RequestContext>;
  readonly relations: readonly DeclaredRelation[];
}

/** The parts of one resource's configuration read here. */
interface RelationResourceConfig {
  singular?: unknown;
  population?: unknown;
}

const SINGULAR = /^[A-Za-z0-9_-]{1,64}$/;
const CONSTRAINT_KEYS = [
  'match',
  'sort',
  'order',
  'limit',
] as const satisfies readonly (keyof PopulationConstraint)[];
const POPULATE_KEYS = [
  'perParentCap',
  'maxRelations',
  'batchRounds',
] as const satisfies readonly (keyof PopulateConfig)[];

/** Checks a `singular` override: the stem of `<singular>_id`, letters, digits, `_` and `-`. */
export function checkSingular(value: unknown, option: string): string {
  if (typeof value !== 'string' || !SINGULAR.test(value)) {
    invalidOption(option, 'expected 1-64 letters, digits, "_" or "-", such as "person"');
  }
  return value;
}

/** Checks the shape of a `population` table (values are checked deeper by `@store/populate`). */
export function checkPopulation(value: unknown, option: string): Record<string, PopulationConstraint> {
  if (!isPlainObject(value)) invalidOption(option, 'expected an object keyed by related resource name');
  for (const [relation, constraint] of Object.entries(value)) {
    const path = `${option}.${relation}`;
    if (!isValidResourceName(relation)) {
      invalidOption(path, 'expected the name of a resource that routes can reach');
    }
    checkKeys(constraint, path, CONSTRAINT_KEYS);
  }
  return value as Record<string, PopulationConstraint>;
}

/** The store option a `@store/populate` option name stands for. */
function storeOptionName(option: string): string {
  const [head, resource, ...rest] = option.split('.');
  if (head === 'singular') return `resources.${resource}.singular`;
  if (head === 'population') return ['resources', resource, 'population', ...rest].join('.');
  return `populate.${option}`;
}

/** Re-throws a populate option error naming the store option (`population.x` -> `resources.<r>.population.x`). */
function asConfigError(error: unknown): never {
  if (isOptionError(error)) invalidOption(storeOptionName(error.option), error.problem);
  throw error;
}

/**
 * Resolves the relationship options ONCE, through `resolvePopulateOptions`: the store-wide
 * `populate` caps plus every resource's `singular` and `population`. Under `restrict`, a
 * relation must name a declared resource. Throws `invalid_config` naming the option.
 */
export function resolveRelationOptions(
  populate: unknown,
  resources: Readonly<Record<string, RelationResourceConfig>>,
  routable: (name: string) => boolean,
): ResolvedRelationOptions {
  const caps = checkKeys(populate ?? {}, 'populate', POPULATE_KEYS) as PopulateConfig;
  const singular: Record<string, string> = Object.create(null);
  const population: Record<string, Record<string, PopulationConstraint>> = Object.create(null);
  const relations: DeclaredRelation[] = [];
  for (const [resource, config] of Object.entries(resources)) {
    const option = `resources.${resource}`;
    if (config.singular !== undefined)
      singular[resource] = checkSingular(config.singular, `${option}.singular`);
    if (config.population === undefined) continue;
    population[resource] = checkPopulation(config.population, `${option}.population`);
    for (const relation of Object.keys(population[resource])) {
      if (!routable(relation))
        invalidOption(
          `${option}.population.${relation}`,
          'names a resource no route reaches (undeclared under restrict: true, or internal)',
        );
      relations.push({ resource, relation });
    }
  }
  try {
    const resolved = resolvePopulateOptions<RequestContext>({
      singular,
      population,
      perParentCap: caps.perParentCap,
      maxRelations: caps.maxRelations,
      batchRounds: caps.batchRounds,
    });
    return { populate: resolved, relations: Object.freeze(relations) };
  } catch (error) {
    return asConfigError(error);
  }
}
