import { isValidResourceName } from '@store/query';
import { type AccessConfig, checkOwnerField, DEFAULT_OWNER_FIELD, resolveAccess } from './access/rules';
import { compileBodySchema } from './body-schema';
import { checkHooks, type ResourceHooks } from './hooks';
import {
  checkBoolean,
  checkCollectionName,
  checkFieldPath,
  checkKeys,
  invalidOption,
  isPlainObject,
} from '@store/common';
import { checkPopulation, checkSingular, type PopulationConstraint } from './relation-options';
import { pluginOf } from './plugins/resolve-plugins';
import type { PluginResourceOptions, StorePlugin } from './plugins/types';
import type { ResolvedResource } from './resources';

/**
 * Options of one resource, under `resources.<name>`; plugins add theirs (`auth` with
 * `@store/auth-magic`) through {@link PluginResourceOptions}.
 */
export interface ResourceConfig extends PluginResourceOptions {
  /**
   * Store `createdAt` / `updatedAt` Dates on this resource.
   * @default the global `timestamps`
   */
  timestamps?: boolean;
  /**
   * Fields `$search` looks in. A text index over them is ensured at start-up; `$search` on a
   * resource without searchable fields is a 400 `invalid_query`.
   * @default []
   */
  search?: string[];
  /**
   * Fields holding GeoJSON. A `2dsphere` index on each is ensured at start-up; `geo:near` needs
   * one (without it, the query answers 400 `invalid_query`), `geo:ins` / `geo:win` do not.
   * @default []
   */
  geo?: string[];
  /**
   * The collection that holds the documents.
   * @default the resource name
   */
  collection?: string;
  /**
   * Singular form of the resource name in reference fields (`<singular>_id`, `<singular>_ids`),
   * for names the pluralization library gets wrong: `{ staff: { singular: 'staffer' } }`.
   * @default pluralize.singular(name): `companies` -> `company`, `people` -> `person`
   */
  singular?: string;
  /**
   * Server-side constraints per relation, `population.<related resource> = { match, sort,
   * order, limit }` (`match` a filter or a function of the request context, `limit` per
   * document). The reference fields of each declared relation are indexed at start-up.
   * @default {}
   */
  population?: Record<string, PopulationConstraint>;
  /**
   * Who may do what (see docs/access.md): one rule for every operation, or
   * `{ read, create, update, delete }` (an operation left out is `"none"`). A rule is `"public"`,
   * `"authenticated"`, `"owner"`, `"none"` or a function of the request context.
   * @default the store's `defaultAccess` (a plugin may set another: `"owner"` on `_id` for the user resource of `auth`)
   */
  access?: AccessConfig;
  /**
   * The field `"owner"` rules compare with the signed-in user's `_id` (a top-level field).
   * @default "user_id"
   */
  ownerField?: string;
  /**
   * Fields never returned by any route or relation, and never accepted in a filter or `$sort`.
   * @default []
   */
  hidden?: string[];
  /**
   * `beforeRead`, `beforeWrite` and `afterRead` (see docs/access.md).
   * @default {}
   */
  hooks?: ResourceHooks;
  /**
   * JSON Schema (checked with Ajv) every `POST`, `PUT` and `PATCH` must satisfy; a `PATCH` is
   * checked as the document it would produce. Failures answer 400 `invalid_body` with `errors`.
   * @default undefined (no schema)
   */
  schema?: Record<string, unknown>;
}

function checkFieldList(value: unknown, option: string): string[] {
  if (!Array.isArray(value)) invalidOption(option, 'expected an array of field names');
  return value.map((field, i) => checkFieldPath(field, `${option}[${i}]`));
}

/** Per-resource option checks: adding an option is one line here (and one field above). */
const RESOURCE_OPTIONS = {
  timestamps: checkBoolean,
  search: checkFieldList,
  geo: checkFieldList,
  collection: checkCollectionName,
  singular: checkSingular,
  population: checkPopulation,
  access: (value, option) => resolveAccess(value, option, DEFAULT_OWNER_FIELD),
  ownerField: checkOwnerField,
  hidden: checkFieldList,
  hooks: checkHooks,
  schema: compileBodySchema,
} satisfies Record<
  Exclude<keyof ResourceConfig, keyof PluginResourceOptions>,
  (value: unknown, option: string) => unknown
>;

/** Resource options of the store's own plugins, and how to turn each on (for a clear message). */
const PLUGIN_HINTS: Readonly<Record<string, string>> = {
  auth: "add `plugins: [magicAuth]` (import { magicAuth } from '@store/auth-magic')",
};

/** What every resource inherits from the store's options. */
interface ResourceDefaults {
  readonly timestamps: boolean;
  /** `defaultAccess` as configured (resolved per resource, with its `ownerField`). */
  readonly access: AccessConfig;
  /** Plugins by the resource option they claim (`auth`). */
  readonly plugins: ReadonlyMap<string, StorePlugin>;
}

function resolveResource(name: string, value: unknown, defaults: ResourceDefaults): ResolvedResource {
  const option = `resources.${name}`;
  if (!isValidResourceName(name))
    invalidOption(option, 'a resource name matches ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$');
  const known = [...Object.keys(RESOURCE_OPTIONS), ...defaults.plugins.keys()];
  for (const [key, hint] of Object.entries(PLUGIN_HINTS)) {
    if (isPlainObject(value) && value[key] !== undefined && !defaults.plugins.has(key)) {
      invalidOption(`${option}.${key}`, `no plugin claims this option: ${hint}`);
    }
  }
  const config = checkKeys(value, option, known) as ResourceConfig;
  const plugin = pluginOf(config as Record<string, unknown>, defaults.plugins);
  const collection = RESOURCE_OPTIONS.collection(
    config.collection ?? plugin?.defaultCollection?.(name) ?? name,
    `${option}.collection`,
  );
  return {
    name,
    collection,
    timestamps: RESOURCE_OPTIONS.timestamps(config.timestamps ?? defaults.timestamps, `${option}.timestamps`),
    search: Object.freeze(RESOURCE_OPTIONS.search(config.search ?? [], `${option}.search`)),
    geo: Object.freeze(RESOURCE_OPTIONS.geo(config.geo ?? [], `${option}.geo`)),
    declared: true,
    access: resolveAccess(
      config.access ?? defaults.access,
      config.access === undefined ? 'defaultAccess' : `${option}.access`,
      RESOURCE_OPTIONS.ownerField(config.ownerField ?? DEFAULT_OWNER_FIELD, `${option}.ownerField`),
    ),
    hidden: Object.freeze(RESOURCE_OPTIONS.hidden(config.hidden ?? [], `${option}.hidden`)),
    managed: [],
    hooks: Object.freeze({ ...RESOURCE_OPTIONS.hooks(config.hooks ?? {}, `${option}.hooks`) }),
    validate:
      config.schema === undefined ? undefined : RESOURCE_OPTIONS.schema(config.schema, `${option}.schema`),
  };
}

/** Resolves `resources` (each value checked, naming the option) with the store's defaults. */
export function resolveResources(
  value: unknown,
  defaults: ResourceDefaults,
): ReadonlyMap<string, ResolvedResource> {
  if (!isPlainObject(value)) invalidOption('resources', 'expected an object keyed by resource name');
  const resources = value;
  return new Map(
    Object.entries(resources).map(([name, config]) => [name, resolveResource(name, config, defaults)]),
  );
}
