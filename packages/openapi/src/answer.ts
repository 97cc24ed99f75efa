/**
 * The routes of the API description: `/openapi.json`, the `/docs` page, and the page's files under
 * `/docs/`. The store sends this plugin every request at or under {@link ROUTE_PATHS}, before
 * any resource route; a `HEAD` is answered as a `GET` (the store drops the body).
 */
import { type PluginAnswer, type PluginRequest, storeError } from '@store/core';
import { docsAsset, isDocsAsset } from './docs-assets';
import { DOCS_SCRIPT, docsPage } from './docs-page';

/** Where the routes live: a resource of one of these names is not reached (`/docs`). */
export const ROUTE_PATHS: readonly string[] = Object.freeze(['/openapi.json', '/docs']);

const YEAR = 'public, max-age=31536000, immutable';

/** What the routes answer from: the document's JSON for a mount path, and the page's title. */
export interface DescriptionSource {
  /** The document, serialized, as served to a store mounted at `mountPath`. */
  documentJson(mountPath: string | undefined): string;
  readonly title: string;
}

function text(body: string, type: string, cache = 'no-cache'): PluginAnswer {
  return { status: 200, body, headers: { 'content-type': type, 'cache-control': cache } };
}

type Route = (request: PluginRequest, source: DescriptionSource) => PluginAnswer;

/** The routes of the description, by exact path. */
const ROUTES: Readonly<Record<string, Route>> = {
  '/openapi.json': (request, source) => ({
    ...text(source.documentJson(request.request.mountPath), 'application/json; charset=utf-8'),
    etag: true,
  }),
  '/docs': (_request, source) => ({
    status: 200,
    html: docsPage(source.title),
    headers: { 'cache-control': 'no-cache' },
  }),
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
    return text(asset.body, asset.type, YEAR);
  };
}

/**
 * `GET /openapi.json` (the OpenAPI 3.1 description of the store) and `GET /docs` (its reference
 * page, with the page's files under `/docs/`); `null` for any other path (not the store's). Other
 * methods are a 405 with `Allow: GET, HEAD`.
 */
export function answerDescription(request: PluginRequest, source: DescriptionSource): PluginAnswer | null {
  const route = routeOf(request.request.path);
  if (route === undefined) return null;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    throw storeError('method_not_allowed', `${request.method} is not allowed here; allowed: GET, HEAD.`, {
      headers: { allow: 'GET, HEAD' },
    });
  }
  return route(request, source);
}
