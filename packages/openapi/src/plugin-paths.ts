/**
 * The routes of active plugins in the OpenAPI description: each plugin describes its own routes
 * (`PluginInstance.openapi`: path items by full path, `/auth/session`), and the document merges them.
 */
import type { DescribedPlugin } from '@store/core';
import type { JsonObject } from './json-object';

/** The plugins' paths and components (by section), merged. */
export interface PluginDescriptions {
  readonly paths: JsonObject;
  readonly components: Record<string, JsonObject>;
}

/** Merges what every active plugin describes; a plugin without a description adds nothing. */
export function pluginDescriptions(plugins: readonly DescribedPlugin[]): PluginDescriptions {
  const paths: JsonObject = {};
  const components: Record<string, JsonObject> = {};
  for (const { openapi } of plugins) {
    if (openapi === undefined) continue;
    Object.assign(paths, openapi.paths);
    for (const [section, entries] of Object.entries(openapi.components ?? {})) {
      components[section] = { ...components[section], ...entries };
    }
  }
  return { paths, components };
}
