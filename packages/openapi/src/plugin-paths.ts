/**
 * The routes of active plugins in the OpenAPI description: each plugin describes its own routes
 * (`PluginInstance.openapi`, paths relative to its `routePrefix`), and core mounts them.
 */
import type { ActivePlugin } from '../model/options';
import type { JsonObject } from './json-object';

/** The plugins' paths (prefixed) and components (by section), merged. */
export interface PluginDescriptions {
  readonly paths: JsonObject;
  readonly components: Record<string, JsonObject>;
}

/** Merges what every active plugin describes; a plugin without a description adds nothing. */
export function pluginDescriptions(plugins: readonly ActivePlugin[]): PluginDescriptions {
  const paths: JsonObject = {};
  const components: Record<string, JsonObject> = {};
  for (const { instance } of plugins) {
    const described = instance.openapi;
    if (described === undefined) continue;
    const prefix = instance.routePrefix.replace(/\/+$/, '');
    for (const [path, item] of Object.entries(described.paths)) paths[`${prefix}${path}`] = item;
    for (const [section, entries] of Object.entries(described.components ?? {})) {
      components[section] = { ...components[section], ...entries };
    }
  }
  return { paths, components };
}
