/**
 * The OpenAPI 3.1 description of a store, generated from what the store describes of itself
 * (`store.describe()`): every declared resource with its schema, the undeclared ones unless
 * `restrict`, the query language, the plugins' routes and the problem+json errors.
 */
import type { DescribedResource, StoreDescription } from '@store/core';
import { HEADER_PARAMETERS, HEADERS, NOT_MODIFIED } from './http-components';
import type { JsonObject } from './json-object';
import { SESSION_TOKEN, SESSION_TOKEN_SCHEME } from './operation-security';
import type { ResolvedOpenApiOptions } from './options';
import { type PluginDescriptions, pluginDescriptions } from './plugin-paths';
import { problemResponseComponents, problemSchema } from './problem-responses';
import {
  parameterKey,
  parameterObject,
  type QueryParameterRow,
  queryParameterTable,
} from './query-parameters';
import { OTHER_RESOURCES, resourcePaths } from './resource-paths';
import { resourceSchemas, sharedSchemas } from './resource-schemas';

/** The `servers` entry: `baseUrl`, else where the store is mounted (`/api`). */
export function serverUrl(store: StoreDescription, mountPath: string | undefined): string {
  return store.baseUrl ?? ((mountPath ?? '').replace(/\/+$/, '') || '/');
}

function tags(store: StoreDescription): JsonObject[] {
  const named = store.resources.map(({ name }) => ({ name, description: `The resource \`${name}\`.` }));
  const other = { name: OTHER_RESOURCES, description: 'Any resource not declared in `resources`.' };
  return store.otherResources === undefined ? named : [...named, other];
}

/** `components`: the plugins' first, so that the store's own win over a plugin's of the same name. */
function components(
  store: StoreDescription,
  rows: readonly QueryParameterRow[],
  plugins: PluginDescriptions['components'],
): JsonObject {
  const queryParameters = rows.map((row) => [`query.${parameterKey(row)}`, parameterObject(row)]);
  const declared: readonly DescribedResource[] = store.resources;
  return {
    ...plugins,
    schemas: {
      ...plugins.schemas,
      ...sharedSchemas(store.wireId),
      Problem: problemSchema(store),
      ...Object.assign({}, ...declared.map((resource) => resourceSchemas(resource, store.wireId))),
    },
    responses: { ...plugins.responses, ...problemResponseComponents(), NotModified: NOT_MODIFIED },
    parameters: { ...plugins.parameters, ...HEADER_PARAMETERS, ...Object.fromEntries(queryParameters) },
    headers: { ...plugins.headers, ...HEADERS },
    securitySchemes: { ...plugins.securitySchemes, [SESSION_TOKEN]: SESSION_TOKEN_SCHEME },
  };
}

/** The OpenAPI document of `store`, named by `info`, for clients that reach it at `server`. */
export function describeStore(
  store: StoreDescription,
  info: ResolvedOpenApiOptions,
  server: string,
): JsonObject {
  const { title, version, description } = info;
  const rows = queryParameterTable(store);
  const plugins = pluginDescriptions(store.plugins);
  const schemes = [SESSION_TOKEN, ...Object.keys(plugins.components.securitySchemes ?? {})];
  return {
    openapi: '3.1.0',
    info: { title, version, ...(description === undefined ? {} : { description }) },
    servers: [{ url: server }],
    tags: tags(store),
    paths: { ...resourcePaths(store, schemes, rows), ...plugins.paths },
    components: components(store, rows, plugins.components),
  };
}
