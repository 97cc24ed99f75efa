/**
 * The `openapi()` plugin: `plugins: [openapi({ title: 'Notes API' })]` serves the store's OpenAPI
 * 3.1 description at `GET /openapi.json` and its reference page at `GET /docs`.
 */
import type { PluginStoreInput, StoreWidePlugin } from '@store/core';
import { answerDescription, type DescriptionSource, ROUTE_PATHS } from './answer';
import { describeStore, serverUrl } from './describe-store';
import { type OpenApiOptions, type ResolvedOpenApiOptions, resolveOpenApiOptions } from './options';

/** Documents kept serialized, one per server URL (a host may mount one store at several paths). */
const DOCUMENTS_KEPT = 16;

/**
 * The document of the store, built on first request (the store's description is complete only
 * once `createStore` has returned) and kept, serialized, per server URL.
 */
function descriptionSource(store: PluginStoreInput, info: ResolvedOpenApiOptions): DescriptionSource {
  const kept = new Map<string, string>();
  return {
    title: info.title,
    documentJson(mountPath) {
      const description = store.describe();
      const server = serverUrl(description, mountPath);
      let json = kept.get(server);
      if (json === undefined) {
        json = JSON.stringify(describeStore(description, info, server));
        if (kept.size >= DOCUMENTS_KEPT) kept.delete(kept.keys().next().value as string);
        kept.set(server, json);
      }
      return json;
    },
  };
}

/**
 * The OpenAPI plugin: `createStore({ plugins: [openapi()] })` answers `GET /openapi.json` (the
 * store's OpenAPI 3.1 description, generated from its options) and `GET /docs` (a Swagger UI page
 * of it, served from `swagger-ui-dist`, no CDN). `/docs` and every path under it then belong to
 * the page: a resource named `docs` is not reached, and the description leaves it out. Throws an
 * `OptionError` naming a bad option (`openapi.title`).
 */
export function openapi(options?: OpenApiOptions): StoreWidePlugin {
  const info = resolveOpenApiOptions(options);
  const plugin: StoreWidePlugin = {
    name: '@store/openapi',
    // Its routes answer only the store's own codes (`not_found`, `method_not_allowed`).
    errorCodes: Object.freeze({}),
    setup({ store }) {
      const source = descriptionSource(store, info);
      return {
        collections: [],
        routePaths: ROUTE_PATHS,
        start: async () => ({ answer: async (request) => answerDescription(request, source) }),
      };
    },
  };
  return Object.freeze(plugin);
}
