import type { RequestContext } from '../context';
import { resolveRelations } from '../relations';
import type { RouteResult } from '../respond';

/** `GET /<res>/<id>/<children>`: the children of one document, under the whole query language. */
export async function listChildren(ctx: RequestContext): Promise<RouteResult> {
  const { id, children } = ctx.route;
  if (id === undefined || children === undefined) throw new TypeError('listChildren needs a children route');
  return { status: 200, data: await resolveRelations(ctx, { kind: 'children', parentId: id, children }) };
}
