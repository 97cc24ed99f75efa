import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';

/** The 404 of a document route: no document of the resource has the path's id (or matches the filter). */
export function documentNotFound(ctx: RequestContext) {
  const id = ctx.route.id ?? '';
  const shown = id.length > 64 ? `${id.slice(0, 64)}...` : id;
  return storeError(
    'not_found',
    `No document of "${ctx.resource.name}" has the id ${JSON.stringify(shown)}.`,
  );
}
