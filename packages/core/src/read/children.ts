import type { RequestContext, RouteResult } from '../model/context';
import { nestedList } from './nested-route';
import { readList } from './read-list';

/**
 * `GET /<res>/<id>/<children>`: the `<children>` whose `<singular(res)>_id` is `<id>` or whose
 * `<singular(res)>_ids` holds it (`<singular(res)>Id` / `Ids` too when a foreign dialect is on),
 * under the whole query language (filters, `$sort`, paging, `$count`, `$select`, `$populate` /
 * `$fill` on the children).
 */
export async function listChildren(ctx: RequestContext): Promise<RouteResult> {
  const { context, filter } = await nestedList(ctx);
  return readList(context, filter);
}
