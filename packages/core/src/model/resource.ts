/** A resource as the store resolved it, and the path that names one. Types only. */
import type { Collation, Document } from '@store/common';
import type { AccessFunction, Operation, ResourceHooks } from './hooks';

/** A rule after resolution: `owner` carries its field. */
export type ResolvedRule =
  | { readonly kind: 'public' }
  | { readonly kind: 'authenticated' }
  | { readonly kind: 'none' }
  | { readonly kind: 'owner'; readonly field: string }
  | { readonly kind: 'function'; readonly decide: AccessFunction };

/** The rule of each operation on one resource. */
export type ResolvedAccess = Readonly<Record<Operation, ResolvedRule>>;

/** One failure of a body against its resource's schema, as listed in the problem's `errors`. */
export interface BodyFieldError {
  /** Dotted path of the failing value (`address.city`, `tags.0`); `''` for the body itself. */
  field: string;
  /** Ajv's message, such as `must be string`. */
  message: string;
}

/**
 * Checks a document against a compiled `resources.<name>.schema`; throws a 400 `invalid_body`
 * whose problem JSON carries `errors: BodyFieldError[]` (at most {@link MAX_BODY_ERRORS}).
 */
export type BodyValidator = (document: Document) => void;

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
  /** Fields with an ascending index ensured at start-up (`indexes`). */
  readonly indexes: readonly string[];
  /** Whether the resource was declared in `resources` (undeclared ones exist unless `restrict`). */
  readonly declared: boolean;
  /** The rule of each operation: its own `access`, else `defaultAccess`. */
  readonly access: ResolvedAccess;
  /** Fields no answer carries and no query may filter or sort on. */
  readonly hidden: readonly string[];
  /** Fields only the store writes (the user's e-mail): a write that changes one is a 403. */
  readonly managed: readonly string[];
  /** `resources.<name>.protected`: fields no client request writes (403 `forbidden`). */
  readonly protected: readonly string[];
  /** `resources.<name>.softDelete`: `DELETE` sets `deletedAt`, and every read leaves such documents out. */
  readonly softDelete: boolean;
  /** `resources.<name>.collation`: how its lists (and writes by filter) compare strings; none: by their bytes. */
  readonly collation: Collation | undefined;
  readonly hooks: ResourceHooks;
  /** `resources.<name>.schema` as configured (for the OpenAPI description); none without one. */
  readonly schema: Readonly<Record<string, unknown>> | undefined;
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

/** The three shapes of resource path. */
export type RouteKind = 'collection' | 'document' | 'children';

/** A path that names a routable resource. */
export interface RouteMatch {
  readonly kind: RouteKind;
  readonly resource: ResolvedResource;
  /** The decoded `<id>` segment (document and children routes). */
  readonly id?: string;
  /** The `<children>` resource of `GET /<res>/<id>/<children>`. */
  readonly children?: ResolvedResource;
}
