/** Builds the {@link StoreDescription} plugins read, once, from the resolved options. */
import { POPULATE_ERROR_CODES } from '@store/populate';
import { QUERY_ERROR_CODES } from '@store/query';
import { ERROR_CODES } from '../model/error-codes';
import { findResource } from '../model/find-resource';
import type { Operation } from '../model/hooks';
import type { ResolvedStoreOptions } from '../model/options';
import { firstRouteSegment } from '../model/plugin';
import type { ResolvedAccess, ResolvedRule } from '../model/resource';
import type {
  DescribedAccess,
  DescribedResource,
  DescribedRule,
  StoreDescription,
} from '../model/store-description';

/** A rule without what it runs: an access function is only `function`. */
const describedRule = (rule: ResolvedRule): DescribedRule =>
  rule.kind === 'function' ? { kind: 'function' } : rule;

function describedAccess(access: ResolvedAccess): DescribedAccess {
  const entries = Object.entries(access).map(([operation, rule]) => [operation, describedRule(rule)]);
  return Object.freeze(Object.fromEntries(entries)) as Record<Operation, DescribedRule>;
}

/** Whether `/<name>` lies at or under one of the plugins' route paths (the plugin answers it first). */
function shadowed(name: string, options: ResolvedStoreOptions): boolean {
  return options.plugins.some(({ instance }) =>
    instance.routePaths.some((path) => firstRouteSegment(path) === name),
  );
}

export function storeDescription(options: ResolvedStoreOptions): StoreDescription {
  const resources: DescribedResource[] = [];
  for (const name of options.resources.keys()) {
    const resource = findResource(options, name);
    if (resource === undefined || shadowed(name, options)) continue;
    resources.push(
      Object.freeze({
        name,
        access: describedAccess(resource.access),
        schema: resource.schema,
        hidden: resource.hidden,
        managed: resource.managed,
        protected: resource.protected,
        softDelete: resource.softDelete,
        timestamps: resource.timestamps,
      }),
    );
  }
  const { realtime } = options;
  return Object.freeze({
    baseUrl: options.baseUrl,
    restrict: options.restrict,
    defaultLimit: options.defaultLimit,
    maxLimit: options.maxLimit,
    maxBulk: options.maxBulk,
    wireId: options.wireId,
    dialects: Object.freeze({
      jsonServer: options.dialects.jsonServer,
      simpleRest: options.dialects.simpleRest,
    }),
    realtime: realtime && Object.freeze({ keepAliveSeconds: realtime.keepAliveSeconds }),
    resources: Object.freeze(resources),
    otherResources: options.restrict
      ? undefined
      : Object.freeze({ access: describedAccess(options.defaultAccess) }),
    errorCodes: Object.freeze({ ...ERROR_CODES, ...QUERY_ERROR_CODES, ...POPULATE_ERROR_CODES }),
    plugins: Object.freeze(
      options.plugins.map(({ plugin, instance }) =>
        Object.freeze({
          name: plugin.name,
          routePaths: instance.routePaths,
          errorCodes: plugin.errorCodes,
          openapi: instance.openapi,
        }),
      ),
    ),
  });
}
