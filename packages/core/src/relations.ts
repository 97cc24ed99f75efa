import type { RequestContext } from './context';
import { StoreError } from './errors';
import type { ResolvedResource } from './resources';
import type { Document } from './storage/types';

/** What the request asks of relationships. */
export type RelationRequest =
  /** `$populate` / `$fill` (in `ctx.query`): add related documents to each of `documents`. */
  | { kind: 'attach'; documents: Document[] }
  /** `GET /<res>/<parentId>/<children>`: the children of one parent, under the whole query language. */
  | { kind: 'children'; parentId: string; children: ResolvedResource };

/**
 * The one entry point for relationships: `$populate`, `$fill` and nested child routes.
 * `@store/populate` is wired in here; until then every such request answers
 * 501 `not_implemented` instead of silently ignoring the parameter.
 */
export async function resolveRelations(ctx: RequestContext, request: RelationRequest): Promise<Document[]> {
  const what =
    request.kind === 'children' ? `GET /${ctx.resource.name}/<id>/<children>` : '$populate and $fill';
  throw new StoreError(501, 'not_implemented', `${what} is not implemented yet.`);
}

/** Whether the query asks for `$populate` or `$fill`. */
export function wantsRelations(ctx: RequestContext): boolean {
  return ctx.query.populate.length > 0 || ctx.query.fill.length > 0;
}
