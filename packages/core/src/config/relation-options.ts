import { checkKeys, invalidOption, isOptionError, isPlainObject } from '@store/common';
import { resolvePopulateOptions } from '@store/populate';
import { isValidResourceName } from '@store/query';
import type { PopulateConfig, PopulationConstraint } from '../model/config';
import type { HookContext } from '../model/hooks';
import type { DeclaredRelation, ResolvedRelationOptions } from '../model/options';

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
  'maxDocuments',
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
 * relation must name a declared resource. With `camelCase` (any foreign dialect on), references
 * named `<singular>Id` / `<singular>Ids` join as `<singular>_id` / `<singular>_ids` do, in
 * `$populate`, `$fill` and nested routes. Throws `invalid_config` naming the option.
 */
export function resolveRelationOptions(
  populate: unknown,
  resources: Readonly<Record<string, RelationResourceConfig>>,
  routable: (name: string) => boolean,
  camelCase = false,
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
    const resolved = resolvePopulateOptions<HookContext>({
      singular,
      camelCase,
      population,
      perParentCap: caps.perParentCap,
      maxRelations: caps.maxRelations,
      batchRounds: caps.batchRounds,
      maxDocuments: caps.maxDocuments,
    });
    return { populate: resolved, relations: Object.freeze(relations) };
  } catch (error) {
    return asConfigError(error);
  }
}
