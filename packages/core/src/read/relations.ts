import type { Document } from '@store/common';
import {
  allRelations,
  attachRelations,
  type PlannedRelation,
  PopulateError,
  planRelations,
  type RelationScope,
  requiredFields,
  withJoinKeys,
} from '@store/populate';
import { grantAccess } from '../access/grant';
import { contextFor } from '../access/request-context';
import { hookContext } from '../hooks/hook-context';
import type { RequestContext } from '../model/context';
import { findResource } from '../model/find-resource';
import type { ResolvedResource } from '../model/resource';
import { afterRead } from './present';

/** `$populate` / `$fill` (in `ctx.query`) over documents of `ctx.resource`. */
export interface RelationRequest {
  /** The page (or the one document), fetched with the projection of {@link relationProjection}. */
  readonly documents: readonly Document[];
  /** Join keys `$select` left out ({@link relationProjection}'s `strip`): removed after the join. */
  readonly strip?: readonly string[];
}

/** How to fetch the page so the joins work: the projection, and the fields to strip afterwards. */
export interface RelationProjection {
  readonly projection: Document | undefined;
  readonly strip: readonly string[];
}

/** The resource a `$populate` / `$fill` name reaches, or a 400 `invalid_relation`. */
function relatedResource(ctx: RequestContext, { name, kind }: PlannedRelation): ResolvedResource {
  const resource = findResource(ctx.options, name);
  if (resource) return resource;
  throw new PopulateError('invalid_relation', `$${kind}: "${name}" is not a resource of this store.`, {
    parameter: `$${kind}`,
    resource: name,
  });
}

/**
 * Validates the request's `$populate` / `$fill` (names and `a.b` paths, repeats, conflicts,
 * count) and that each name at every level is a routable resource: unknown under `restrict`,
 * internal or invalid names are a 400 before any query runs. Returns the related resources.
 */
function checkRelations(ctx: RequestContext): ResolvedResource[] {
  const { populate, fill } = ctx.query;
  const planned = planRelations(populate, fill, ctx.options.populate.maxRelations);
  return allRelations(planned).map((relation) => relatedResource(ctx, relation));
}

/**
 * Checks the relations ({@link checkRelations}) and extends `$select` with the join keys they
 * need (`_id`, `<singular>_id`, `<singular>_ids`); `strip` lists those `$select` left out.
 */
export function relationProjection(ctx: RequestContext): RelationProjection {
  const { projection, populate, fill } = ctx.query;
  if (!wantsRelations(ctx) || checkRelations(ctx).length === 0) return { projection, strip: [] };
  const keys = requiredFields(ctx.resource.name, populate, fill, ctx.options.populate);
  const extended = withJoinKeys(projection, keys);
  return { projection: extended.projection, strip: extended.added };
}

/**
 * What a related resource contributes to one request: its collection, its read rule's filter
 * (and `beforeRead`'s; a rule that refuses the caller refuses the request, 401/403), its
 * `afterRead` and hidden fields. The single place they plug in, so `$populate` and `$fill` can
 * never show more than `GET /<resource>` does.
 */
async function relationScope(ctx: RequestContext, resource: ResolvedResource): Promise<RelationScope> {
  const related = contextFor(ctx, resource);
  const { filter } = await grantAccess(related, 'read');
  return {
    collection: resource.collection,
    filter,
    hidden: resource.hidden,
    // Only a resource with the hook: without one, populate need not copy what the database gave.
    ...(resource.hooks.afterRead === undefined
      ? {}
      : { afterRead: (documents: Document[]) => afterRead(related, documents) }),
  };
}

/**
 * The one entry point for `$populate` and `$fill`: attaches to each document the related
 * documents the query asks for, one query per related resource for the whole page, with the
 * constraints of `resources.<resource>.population` (their `match` functions receive `ctx`).
 * Returns new documents without `request.strip`; the inputs are never mutated.
 */
export async function resolveRelations(ctx: RequestContext, request: RelationRequest): Promise<Document[]> {
  const related = new Map(checkRelations(ctx).map((resource) => [resource.name, resource]));
  return attachRelations(
    request.documents,
    {
      db: ctx.db,
      resource: ctx.resource.name,
      populate: ctx.query.populate,
      fill: ctx.query.fill,
      context: hookContext(ctx),
      strip: request.strip ?? [],
      scope: (name) => {
        const resource = related.get(name);
        if (resource === undefined) throw new TypeError(`relation "${name}" was not checked`);
        return relationScope(ctx, resource);
      },
    },
    ctx.options.populate,
  );
}

/** Whether the query asks for `$populate` or `$fill`. */
export function wantsRelations(ctx: RequestContext): boolean {
  return ctx.query.populate.length > 0 || ctx.query.fill.length > 0;
}
