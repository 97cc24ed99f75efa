/**
 * The OpenAPI 3.1 description of a store (contract section 12), generated from its resolved
 * options: every declared resource with its schema, the undeclared ones unless `restrict`, the
 * query language, the plugins' routes and the problem+json errors.
 */
import type { ResolvedStoreOptions } from '../model/options';
import type { ResolvedResource } from '../model/resource';
import { HEADER_PARAMETERS, HEADERS, NOT_MODIFIED } from './http-components';
import type { JsonObject } from './json-object';
import { SESSION_TOKEN, SESSION_TOKEN_SCHEME } from './operation-security';
import { type PluginDescriptions, pluginDescriptions } from './plugin-paths';
import { problemResponseComponents, problemSchema } from './problem-responses';
import {
  parameterKey,
  parameterObject,
  type QueryParameterRow,
  queryParameterTable,
} from './query-parameters';
import { OTHER_RESOURCES, resourcePaths, routableResources } from './resource-paths';
import { resourceSchemas, SHARED_SCHEMAS } from './resource-schemas';

/** The `servers` entry: `baseUrl`, else where the store is mounted (`/api`). */
function serverUrl(options: ResolvedStoreOptions, mountPath: string | undefined): string {
  return options.baseUrl ?? ((mountPath ?? '').replace(/\/+$/, '') || '/');
}

function tags(options: ResolvedStoreOptions, declared: readonly ResolvedResource[]): JsonObject[] {
  const named = declared.map(({ name }) => ({ name, description: `The resource \`${name}\`.` }));
  const other = { name: OTHER_RESOURCES, description: 'Any resource not declared in `resources`.' };
  return options.restrict ? named : [...named, other];
}

/** `components`: the plugins' first, so that the store's own win over a plugin's of the same name. */
function components(
  options: ResolvedStoreOptions,
  declared: readonly ResolvedResource[],
  rows: readonly QueryParameterRow[],
  plugins: PluginDescriptions['components'],
): JsonObject {
  const queryParameters = rows.map((row) => [`query.${parameterKey(row)}`, parameterObject(row)]);
  return {
    ...plugins,
    schemas: {
      ...plugins.schemas,
      ...SHARED_SCHEMAS,
      Problem: problemSchema(options),
      ...Object.assign({}, ...declared.map(resourceSchemas)),
    },
    responses: { ...plugins.responses, ...problemResponseComponents(), NotModified: NOT_MODIFIED },
    parameters: { ...plugins.parameters, ...HEADER_PARAMETERS, ...Object.fromEntries(queryParameters) },
    headers: { ...plugins.headers, ...HEADERS },
    securitySchemes: { ...plugins.securitySchemes, [SESSION_TOKEN]: SESSION_TOKEN_SCHEME },
  };
}

/** The OpenAPI document of the store, as `GET /openapi.json` answers it for a store mounted at `mountPath`. */
export function describeStore(options: ResolvedStoreOptions, mountPath: string | undefined): JsonObject {
  const { title, version, description } = options.openapi ?? { title: '@store API', version: '1.0.0' };
  const rows = queryParameterTable(options);
  const plugins = pluginDescriptions(options.plugins);
  const schemes = [SESSION_TOKEN, ...Object.keys(plugins.components.securitySchemes ?? {})];
  const declared = routableResources(options);
  return {
    openapi: '3.1.0',
    info: { title, version, ...(description === undefined ? {} : { description }) },
    servers: [{ url: serverUrl(options, mountPath) }],
    tags: tags(options, declared),
    paths: { ...resourcePaths(options, schemes, rows), ...plugins.paths },
    components: components(options, declared, rows, plugins.components),
  };
}
