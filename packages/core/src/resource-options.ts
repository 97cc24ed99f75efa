import { isValidResourceName } from '@store/query';
import {
  type AccessConfig,
  checkOwnerField,
  DEFAULT_OWNER_FIELD,
  resolveAccess,
  USER_ACCESS,
} from './access/rules';
import { checkAuthConfig, type StoreAuth, USER_RESOURCE, type UserAuthConfig } from './auth/options';
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
import { INTERNAL_COLLECTIONS, type ResolvedResource } from './resources';

/** Options of one resource, under `resources.<name>`. */
export interface ResourceConfig {
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
   * Passwordless login, on the user resource only (`resources.user.auth.magicLink` /
   * `.magicCode`; see docs/auth.md). With it, the user resource's collection defaults to
   * `users`, and that collection is never routable as a resource.
   * @default undefined (no auth routes)
   */
  auth?: UserAuthConfig | null;
  /**
   * Who may do what (see docs/access.md): one rule for every operation, or
   * `{ read, create, update, delete }` (an operation left out is `"none"`). A rule is `"public"`,
   * `"authenticated"`, `"owner"`, `"none"` or a function of the request context.
   * @default the store's `defaultAccess`; for the user resource of `auth`, `"owner"` on `_id` (no create)
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
  auth: checkAuthConfig,
  access: (value, option) => resolveAccess(value, option, DEFAULT_OWNER_FIELD),
  ownerField: checkOwnerField,
  hidden: checkFieldList,
  hooks: checkHooks,
  schema: compileBodySchema,
} satisfies Record<keyof ResourceConfig, (value: unknown, option: string) => unknown>;

/** What every resource inherits from the store's options. */
interface ResourceDefaults {
  readonly timestamps: boolean;
  /** `defaultAccess` as configured (resolved per resource, with its `ownerField`). */
  readonly access: AccessConfig;
}

function resolveResource(name: string, value: unknown, defaults: ResourceDefaults): ResolvedResource {
  const option = `resources.${name}`;
  if (!isValidResourceName(name))
    invalidOption(option, 'a resource name matches ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$');
  const config = checkKeys(value, option, Object.keys(RESOURCE_OPTIONS)) as ResourceConfig;
  const collection = RESOURCE_OPTIONS.collection(
    config.collection ?? (config.auth ? `${name}s` : name),
    `${option}.collection`,
  );
  if (INTERNAL_COLLECTIONS.has(collection) || INTERNAL_COLLECTIONS.has(name)) {
    invalidOption(option, `"${collection}" is an internal collection of the store`);
  }
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

/** The resources as routed, and the collections no route reaches. */
export interface RoutedResources {
  readonly resources: ReadonlyMap<string, ResolvedResource>;
  readonly internalCollections: ReadonlySet<string>;
  /** `resources` as configured, keyed by routed name (`resources.user` under `users`), for relation options. */
  readonly configByRoute: Readonly<Record<string, ResourceConfig>>;
}

/**
 * With auth on, the user resource is routed under its collection's name (`/users/<id>`, and
 * `users` in `$populate` / `$fill`), with `"owner"` on its own `_id` unless it declares `access`;
 * the e-mail fields sign-in relies on are managed (a write cannot change them). The store's own
 * collections, and the name `user` itself, stay unroutable.
 */
export function routeUserResource(
  resources: ReadonlyMap<string, ResolvedResource>,
  auth: StoreAuth | null,
  config: Readonly<Record<string, ResourceConfig>>,
): RoutedResources {
  const user = resources.get(USER_RESOURCE);
  if (auth === null || user === undefined) {
    return {
      resources,
      internalCollections: auth?.collections ?? INTERNAL_COLLECTIONS,
      configByRoute: config,
    };
  }
  const { magicLink, magicCode, userCollection } = auth.options;
  const managed = [...new Set([magicLink?.emailField, magicCode?.emailField])].filter(
    (field): field is string => field !== undefined,
  );
  const routed: ResolvedResource = {
    ...user,
    name: userCollection,
    access: config[USER_RESOURCE]?.access === undefined ? USER_ACCESS : user.access,
    managed: Object.freeze(managed),
  };
  const internal = new Set(auth.collections);
  internal.delete(userCollection);
  internal.add(USER_RESOURCE);
  const routedResources = new Map(resources);
  routedResources.delete(USER_RESOURCE);
  routedResources.set(userCollection, routed);
  const { [USER_RESOURCE]: userConfig, ...others } = config;
  const configByRoute = { ...others, [userCollection]: userConfig as ResourceConfig };
  return { resources: routedResources, internalCollections: internal, configByRoute };
}
