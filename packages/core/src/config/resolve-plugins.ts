import { invalidOption, isPlainObject } from '@store/common';
import { resolveAccess } from '../access/rules';
import type { Awaitable, HookContext, ResourceHooks } from '../model/hooks';
import type { ActivePlugin } from '../model/options';
import {
  firstRouteSegment,
  type PluginResourceRoute,
  type PluginStoreInput,
  type ResourcePlugin,
  type StoreWidePlugin,
} from '../model/plugin';
import type { ResolvedResource } from '../model/resource';

/** `plugins` checked: the resource plugins by the option each claims, and the store-wide ones with their place. */
export interface CheckedPlugins {
  readonly claimed: ReadonlyMap<string, ResourcePlugin>;
  readonly storeWide: readonly { readonly plugin: StoreWidePlugin; readonly option: string }[];
}

/** Checks `plugins`: an array of plugin objects, each claiming a different resource option or none. */
export function checkPlugins(value: unknown): CheckedPlugins {
  if (!Array.isArray(value)) invalidOption('plugins', 'expected an array of plugins such as [magicAuth]');
  const claimed = new Map<string, ResourcePlugin>();
  const storeWide: { plugin: StoreWidePlugin; option: string }[] = [];
  for (const [i, plugin] of value.entries()) {
    const p = plugin as Partial<ResourcePlugin> | null;
    if (
      !isPlainObject(p) ||
      typeof p.name !== 'string' ||
      (p.resourceOption !== undefined && typeof p.resourceOption !== 'string') ||
      typeof p.setup !== 'function'
    ) {
      invalidOption(
        `plugins[${i}]`,
        'expected a store plugin (an object with name and setup, such as magicAuth or openapi()); a factory must be called',
      );
    }
    if (p.resourceOption === undefined) {
      storeWide.push({ plugin: p as unknown as StoreWidePlugin, option: `plugins[${i}]` });
      continue;
    }
    const other = claimed.get(p.resourceOption);
    if (other !== undefined) {
      invalidOption(
        `plugins[${i}]`,
        `${p.name} and ${other.name} both claim the resource option "${p.resourceOption}"`,
      );
    }
    claimed.set(p.resourceOption, p as ResourcePlugin);
  }
  return { claimed, storeWide };
}

/** The plugin claiming an option that `config` (one resource's options) sets, if any. */
export function pluginOf(
  config: Readonly<Record<string, unknown>>,
  claimed: ReadonlyMap<string, ResourcePlugin>,
): ResourcePlugin | undefined {
  for (const [option, plugin] of claimed) if (config[option] !== undefined) return plugin;
  return undefined;
}

/**
 * Resolves every claimed resource option through its plugin (`setup`), once, at `createStore`.
 * A plugin's collections may hold no other resource.
 */
export function setupPlugins(
  claimed: ReadonlyMap<string, ResourcePlugin>,
  resources: ReadonlyMap<string, ResolvedResource>,
  config: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  store: PluginStoreInput,
): readonly ActivePlugin[] {
  const active: ActivePlugin[] = [];
  for (const [resourceName, resourceConfig] of Object.entries(config)) {
    for (const [option, plugin] of claimed) {
      const value = resourceConfig[option];
      const resource = resources.get(resourceName);
      if (value === undefined || resource === undefined) continue;
      const fullName = `resources.${resourceName}.${option}`;
      const instance = plugin.setup({
        option: fullName,
        resourceName,
        collection: resource.collection,
        value,
        store,
      });
      if (instance !== null) active.push({ plugin, resourceName, instance });
    }
  }
  for (const { resourceName, instance } of active) {
    for (const resource of resources.values()) {
      if (resource.name !== resourceName && instance.collections.includes(resource.collection)) {
        invalidOption(
          `resources.${resource.name}`,
          `"${resource.collection}" is an internal collection of the store`,
        );
      }
    }
  }
  return active;
}

/** Sets up the store-wide plugins, once each, in the order of `plugins`. */
export function setupStoreWidePlugins(
  storeWide: CheckedPlugins['storeWide'],
  store: PluginStoreInput,
): readonly ActivePlugin[] {
  return storeWide.map(({ plugin, option }) => ({
    plugin,
    resourceName: undefined,
    instance: plugin.setup({ option, store }),
  }));
}

/** Two active plugins never answer the same path: their route paths' first segments differ. */
export function checkRoutePaths(active: readonly ActivePlugin[]): void {
  const owners = new Map<string, string>();
  for (const { plugin, instance } of active) {
    for (const path of instance.routePaths) {
      const segment = firstRouteSegment(path);
      const owner = owners.get(segment);
      if (owner !== undefined && owner !== plugin.name) {
        invalidOption('plugins', `${plugin.name} and ${owner} both answer /${segment}`);
      }
      owners.set(segment, plugin.name);
    }
  }
}

/** An after-hook taking one value besides the context (`afterWrite`'s change, `afterDelete`'s document). */
type AfterHook<T> = (ctx: HookContext, value: T) => Awaitable<unknown>;

/** `own`, then `added` (even when `own` throws: what it threw is rethrown after). */
function runBoth<T>(
  own: AfterHook<T> | undefined,
  added: AfterHook<T> | undefined,
): AfterHook<T> | undefined {
  if (own === undefined || added === undefined) return own ?? added;
  return async (ctx, value) => {
    try {
      await own(ctx, value);
    } finally {
      await added(ctx, value);
    }
  };
}

/** The resource's hooks with the plugin's after-hooks run after the application's own. */
function withPluginHooks(hooks: ResourceHooks, added: PluginResourceRoute['hooks']): ResourceHooks {
  if (added === undefined) return hooks;
  const afterWrite = runBoth(hooks.afterWrite, added.afterWrite);
  const afterDelete = runBoth(hooks.afterDelete, added.afterDelete);
  return Object.freeze({
    ...hooks,
    ...(afterWrite === undefined ? {} : { afterWrite }),
    ...(afterDelete === undefined ? {} : { afterDelete }),
  });
}

/** The resources as routed, and the collections no route reaches. */
export interface RoutedResources {
  readonly resources: ReadonlyMap<string, ResolvedResource>;
  readonly internalCollections: ReadonlySet<string>;
  /** `resources` as configured, keyed by routed name (`resources.user` under `users`), for relation options. */
  readonly configByRoute: Readonly<Record<string, unknown>>;
}

/**
 * Applies what active plugins ask of the resource carrying their option: routed under another
 * name (`user` -> `/users`), a default access rule, fields only the plugin writes, hooks run
 * after the application's own. The plugins' collections, and the old name, stay unroutable.
 */
export function routePluginResources(
  resources: ReadonlyMap<string, ResolvedResource>,
  active: readonly ActivePlugin[],
  config: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
): RoutedResources {
  const routed = new Map(resources);
  const internal = new Set<string>();
  const configByRoute: Record<string, unknown> = { ...config };
  for (const { resourceName, instance } of active) {
    for (const name of instance.collections) internal.add(name);
    const resource = resourceName === undefined ? undefined : routed.get(resourceName);
    const route = instance.resource;
    if (resourceName === undefined || resource === undefined || route === undefined) continue;
    const name = route.routeAs ?? resourceName;
    const declaredAccess = config[resourceName]?.access !== undefined;
    const access =
      route.defaultAccess === undefined || declaredAccess
        ? resource.access
        : resolveAccess(
            route.defaultAccess.rule,
            `resources.${resourceName}.access`,
            route.defaultAccess.ownerField,
          );
    routed.delete(resourceName);
    routed.set(name, {
      ...resource,
      name,
      access,
      managed: Object.freeze([...(route.managedFields ?? [])]),
      hooks: withPluginHooks(resource.hooks, route.hooks),
    });
    internal.delete(resource.collection);
    if (name !== resourceName) {
      internal.add(resourceName);
      configByRoute[name] = config[resourceName];
      delete configByRoute[resourceName];
    }
  }
  return { resources: routed, internalCollections: internal, configByRoute };
}
