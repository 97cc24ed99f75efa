import { storeError } from './error-codes';
import { listChildren } from './routes/children';
import { createDocument } from './routes/create';
import { deleteDocument } from './routes/delete';
import { getDocument } from './routes/get-one';
import { listDocuments } from './routes/list';
import { patchDocument } from './routes/patch';
import { replaceDocument } from './routes/replace';
import type { RouteHandler } from './model/context';
import type { RouteKind } from './model/resource';

/** Which handler answers which method on each shape of path. `HEAD` is a `GET` without body. */
export const ROUTES = {
  collection: { GET: listDocuments, HEAD: listDocuments, POST: createDocument },
  document: {
    GET: getDocument,
    HEAD: getDocument,
    PUT: replaceDocument,
    PATCH: patchDocument,
    DELETE: deleteDocument,
  },
  children: { GET: listChildren, HEAD: listChildren },
} satisfies Record<RouteKind, Record<string, RouteHandler>>;

/** The handler for a method on a kind of path; throws 405 `method_not_allowed` with `Allow` otherwise (before any access rule runs). */
export function routeFor(kind: RouteKind, method: string): RouteHandler {
  const methods: Record<string, RouteHandler> = ROUTES[kind];
  const upper = method.toUpperCase();
  if (Object.hasOwn(methods, upper)) return methods[upper] as RouteHandler;
  const allow = Object.keys(methods).join(', ');
  throw storeError('method_not_allowed', `${upper} is not allowed here; allowed: ${allow}.`, {
    headers: { allow },
  });
}
