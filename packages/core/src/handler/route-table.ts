import type { RouteHandler } from '../model/context';
import { storeError } from '../model/error-codes';
import type { RouteKind } from '../model/resource';
import { listChildren } from '../read/children';
import { getDocument } from '../read/get-one';
import { listDocuments } from '../read/list';
import { deleteMatching } from '../write/bulk-delete';
import { patchMatching } from '../write/bulk-update';
import { createDocument } from '../write/create';
import { deleteDocument } from '../write/delete';
import { patchDocument } from '../write/patch';
import { replaceDocument } from '../write/replace';

/** Which handler answers which method on each shape of path. `HEAD` is a `GET` without body. */
const ROUTES = {
  collection: {
    GET: listDocuments,
    HEAD: listDocuments,
    POST: createDocument,
    PATCH: patchMatching,
    DELETE: deleteMatching,
  },
  document: {
    GET: getDocument,
    HEAD: getDocument,
    PUT: replaceDocument,
    PATCH: patchDocument,
    DELETE: deleteDocument,
  },
  children: { GET: listChildren, HEAD: listChildren },
} satisfies Record<RouteKind, Record<string, RouteHandler>>;

/**
 * The handler for an (upper-case) method on a kind of path; throws 405 `method_not_allowed` with
 * `Allow` otherwise (before any access rule runs).
 */
export function routeFor(kind: RouteKind, method: string): RouteHandler {
  const methods: Record<string, RouteHandler> = ROUTES[kind];
  if (Object.hasOwn(methods, method)) return methods[method] as RouteHandler;
  const allow = Object.keys(methods).join(', ');
  throw storeError('method_not_allowed', `${method} is not allowed here; allowed: ${allow}.`, {
    headers: { allow },
  });
}
