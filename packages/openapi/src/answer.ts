/**
 * The routes of the API description (contract section 12), tried before every other route while
 * `openapi` is on: `/openapi.json`, the `/docs` page, and the page's files under `/docs/`.
 */

import { withEtag } from '../http/etag';
import { renderError } from '../http/render-error';
import { storeError } from '../model/error-codes';
import type { StoreRequest, StoreResponse } from '../model/http';
import type { ResolvedStoreOptions } from '../model/options';
import { describeStore } from './describe-store';
import { docsAsset, isDocsAsset } from './docs-assets';
import { DOCS_SCRIPT, docsPage } from './docs-page';

const YEAR = 'public, max-age=31536000, immutable';

function text(body: string, type: string, cache = 'no-cache'): StoreResponse {
  const headers = {
    'content-type': type,
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': cache,
  };
  return { status: 200, headers, body };
}

type Route = (request: StoreRequest, options: ResolvedStoreOptions) => StoreResponse;

/** The routes of the description, by exact path. */
const ROUTES: Readonly<Record<string, Route>> = {
  '/openapi.json': (request, options) => {
    const body = JSON.stringify(describeStore(options, request.mountPath));
    return withEtag(request, text(body, 'application/json; charset=utf-8'), undefined);
  },
  '/docs': (_request, options) => text(docsPage(options.openapi?.title ?? ''), 'text/html; charset=utf-8'),
  // The page's relative URLs need `/docs`, not `/docs/`.
  '/docs/': () => ({ status: 301, headers: { location: '../docs' } }),
  '/docs/docs.js': () => text(DOCS_SCRIPT, 'text/javascript; charset=utf-8'),
};

/** The route of `path`: one of {@link ROUTES}, a file of the page, or a 404 anywhere else under `/docs/`. */
function routeOf(path: string): Route | undefined {
  if (Object.hasOwn(ROUTES, path)) return ROUTES[path];
  if (!path.startsWith('/docs/')) return undefined;
  const name = path.slice('/docs/'.length);
  if (!isDocsAsset(name)) {
    return () => {
      throw storeError('not_found', 'The /docs page has no such file.');
    };
  }
  return () => {
    const asset = docsAsset(name);
    return {
      status: 200,
      headers: { 'content-type': asset.type, 'content-length': asset.length, 'cache-control': YEAR },
      body: asset.body,
    };
  };
}

/** Whether `path` is one of the description's routes while `openapi` is on (a CORS preflight for it is answered). */
export function isDescriptionPath(path: string, options: ResolvedStoreOptions): boolean {
  return options.openapi !== undefined && routeOf(path) !== undefined;
}

/**
 * `GET /openapi.json` (the OpenAPI 3.1 description of the store) and `GET /docs` (its reference
 * page, with the page's files under `/docs/`) when `openapi` is on; `null` for every other request.
 */
export function answerApiDescription(
  request: StoreRequest,
  options: ResolvedStoreOptions,
): StoreResponse | null {
  const route = options.openapi === undefined ? undefined : routeOf(request.path);
  if (route === undefined) return null;
  try {
    const method = request.method.toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      throw storeError('method_not_allowed', `${method} is not allowed here; allowed: GET, HEAD.`, {
        headers: { allow: 'GET, HEAD' },
      });
    }
    return route(request, options);
  } catch (error) {
    return renderError(error, options.logger);
  }
}
