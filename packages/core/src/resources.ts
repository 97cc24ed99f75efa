import { isValidResourceName } from '@store/query';
import type { ResolvedAccess } from './access/rules';
import type { BodyValidator } from './body-schema';
import type { ResourceHooks } from './hooks';

/** A resource after option resolution: every field present. */
export interface ResolvedResource {
  /** The name in the path: `/posts`. */
  readonly name: string;
  /** The collection its documents live in. */
  readonly collection: string;
  /** Whether `createdAt` / `updatedAt` are stored. */
  readonly timestamps: boolean;
  /** Fields covered by `$search` (a text index over them is ensured at start-up). */
  readonly search: readonly string[];
  /** GeoJSON fields (a `2dsphere` index on each is ensured at start-up). */
  readonly geo: readonly string[];
  /** Whether the resource was declared in `resources` (undeclared ones exist unless `restrict`). */
  readonly declared: boolean;
  /** The rule of each operation: its own `access`, else `defaultAccess`. */
  readonly access: ResolvedAccess;
  /** Fields no answer carries and no query may filter or sort on. */
  readonly hidden: readonly string[];
  /** Fields only the store writes (the user's e-mail): a write that changes one is a 403. */
  readonly managed: readonly string[];
  readonly hooks: ResourceHooks;
  /** Checks a document a write would store against `schema` (400 `invalid_body`); none without one. */
  readonly validate: BodyValidator | undefined;
}

/** What {@link findResource} needs from the resolved options. */
export interface ResourceTable {
  readonly resources: ReadonlyMap<string, ResolvedResource>;
  readonly restrict: boolean;
  readonly timestamps: boolean;
  /** Collections never routable (as names, or as declared resources' collections): the plugins' own. */
  readonly internalCollections: ReadonlySet<string>;
  /** The access of resources that declare none (undeclared ones included). */
  readonly defaultAccess: ResolvedAccess;
}

/**
 * The resource a path segment names, or `undefined` when it is not routable: an invalid
 * name, an internal collection (by name, or as a declared resource's collection), or an
 * undeclared name under `restrict: true`.
 */
export function findResource(table: ResourceTable, name: string): ResolvedResource | undefined {
  const internal = table.internalCollections;
  if (!isValidResourceName(name) || internal.has(name)) return undefined;
  const declared = table.resources.get(name);
  if (declared) return internal.has(declared.collection) ? undefined : declared;
  if (table.restrict) return undefined;
  return {
    name,
    collection: name,
    timestamps: table.timestamps,
    search: [],
    geo: [],
    declared: false,
    access: table.defaultAccess,
    hidden: [],
    managed: [],
    hooks: {},
    validate: undefined,
  };
}
