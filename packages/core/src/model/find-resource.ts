import { isValidResourceName } from '@store/query';
import type { ResolvedResource, ResourceTable } from './resource';
import { REVISION_FIELD } from './revision';

/** An undeclared resource hides only the store's revision field. */
const UNDECLARED_HIDDEN = Object.freeze([REVISION_FIELD]);

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
    indexes: [],
    declared: false,
    access: table.defaultAccess,
    hidden: UNDECLARED_HIDDEN,
    managed: [],
    protected: [],
    softDelete: false,
    collation: undefined,
    hooks: {},
    schema: undefined,
    validate: undefined,
  };
}
