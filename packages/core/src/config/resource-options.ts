import {
  checkBoolean,
  checkCollectionName,
  checkFieldPath,
  checkKeys,
  invalidOption,
  isPlainObject,
} from '@store/common';
import { isValidResourceName } from '@store/query';
import { checkHiddenPaths, checkSearchNotHidden } from '../access/hidden';
import { checkOwnerField, DEFAULT_OWNER_FIELD, resolveAccess } from '../access/rules';
import { SOFT_DELETE_FIELD } from '../access/soft-delete';
import { checkHooks } from '../hooks/hooks';
import type { ResourceConfig } from '../model/config';
import type { AccessConfig } from '../model/hooks';
import type { PluginResourceOptions, ResourcePlugin } from '../model/plugin';
import type { ResolvedResource } from '../model/resource';
import { REVISION_FIELD } from '../model/revision';
import { compileBodySchema } from './body-schema';
import { checkCollation } from './collation-option';
import { checkPopulation, checkSingular } from './relation-options';
import { pluginOf } from './resolve-plugins';

function checkFieldList(value: unknown, option: string): string[] {
  if (!Array.isArray(value)) invalidOption(option, 'expected an array of field names');
  return value.map((field, i) => checkFieldPath(field, `${option}[${i}]`));
}

/** A list of top-level field names (`protected`: a write keeps or refuses each whole field). */
function checkTopLevelFields(value: unknown, option: string): string[] {
  if (!Array.isArray(value)) invalidOption(option, 'expected an array of top-level field names');
  return value.map((field, i) => {
    if (field === '_id') invalidOption(`${option}[${i}]`, '"_id" never changes; list other fields');
    return checkOwnerField(field, `${option}[${i}]`);
  });
}

/** Per-resource option checks: adding an option is one line here (and one field above). */
const RESOURCE_OPTIONS = {
  timestamps: checkBoolean,
  search: checkFieldList,
  geo: checkFieldList,
  indexes: checkFieldList,
  collection: checkCollectionName,
  singular: checkSingular,
  population: checkPopulation,
  access: (value, option) => resolveAccess(value, option, DEFAULT_OWNER_FIELD),
  ownerField: checkOwnerField,
  hidden: (value: unknown, option: string) => checkHiddenPaths(checkFieldList(value, option), option),
  protected: checkTopLevelFields,
  softDelete: checkBoolean,
  collation: checkCollation,
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
  readonly plugins: ReadonlyMap<string, ResourcePlugin>;
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
  // The store's revision field is hidden on every resource (write/revision.ts).
  const hidden = Object.freeze([
    ...RESOURCE_OPTIONS.hidden(config.hidden ?? [], `${option}.hidden`),
    REVISION_FIELD,
  ]);
  const softDelete = RESOURCE_OPTIONS.softDelete(config.softDelete ?? false, `${option}.softDelete`);
  return {
    name,
    collection,
    timestamps: RESOURCE_OPTIONS.timestamps(config.timestamps ?? defaults.timestamps, `${option}.timestamps`),
    search: Object.freeze(
      checkSearchNotHidden(
        RESOURCE_OPTIONS.search(config.search ?? [], `${option}.search`),
        hidden,
        `${option}.search`,
      ),
    ),
    geo: Object.freeze(RESOURCE_OPTIONS.geo(config.geo ?? [], `${option}.geo`)),
    indexes: Object.freeze(RESOURCE_OPTIONS.indexes(config.indexes ?? [], `${option}.indexes`)),
    declared: true,
    access: resolveAccess(
      config.access ?? defaults.access,
      config.access === undefined ? 'defaultAccess' : `${option}.access`,
      RESOURCE_OPTIONS.ownerField(config.ownerField ?? DEFAULT_OWNER_FIELD, `${option}.ownerField`),
    ),
    hidden,
    managed: [],
    protected: Object.freeze([
      ...RESOURCE_OPTIONS.protected(config.protected ?? [], `${option}.protected`),
      ...(softDelete ? [SOFT_DELETE_FIELD] : []),
    ]),
    softDelete,
    collation: RESOURCE_OPTIONS.collation(config.collation, `${option}.collation`),
    hooks: Object.freeze({ ...RESOURCE_OPTIONS.hooks(config.hooks ?? {}, `${option}.hooks`) }),
    schema: config.schema,
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
