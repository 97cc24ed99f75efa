import type { RequestContext, RouteResult } from '../model/context';
import { readList } from './read-list';

/**
 * `GET /<res>`: the page of documents the query selects, with `$populate` / `$fill`, or
 * `{ count }` with `$count=1` (the whole filter; page, limit, sort and select ignored).
 */
export async function listDocuments(ctx: RequestContext): Promise<RouteResult> {
  return readList(ctx);
}
