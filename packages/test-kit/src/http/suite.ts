/**
 * The one conformance suite over HTTP (routes, bodies, errors, the query language, relations,
 * access, hooks, sign-in, change events, rate limits), run once per storage engine through
 * `describeEngines`, against whatever server an adapter provides. Each adapter's test file calls
 * {@link describeConformance} with its `serve`.
 */
import { type DescribeEnginesOptions, describeEngines } from '../engines';
import { accessTests } from './access.suite';
import { authTests } from './auth.suite';
import { bodyTests } from './bodies.suite';
import { budgetTests } from './budgets.suite';
import { bulkTests } from './bulk.suite';
import { corsTests } from './cors.suite';
import { errorTests } from './errors.suite';
import { etagTests } from './etag.suite';
import { type Serve, useServer } from './harness';
import { hookTests } from './hooks.suite';
import { orGroupTests } from './or-groups.suite';
import { pagingTests } from './paging.suite';
import { pathTests } from './paths.suite';
import { queryTests } from './query.suite';
import { rateLimitTests } from './rate-limit.suite';
import { realtimeTests } from './realtime.suite';
import { realtimeTrustTests } from './realtime-trust.suite';
import { relationRuleTests } from './relation-rules.suite';
import { relationTests } from './relations.suite';
import { routeTests } from './routes.suite';

/**
 * Registers the whole conformance suite for the server `serve` builds, on every engine.
 * `options.driverTiers` adds the driver-path tiers; one adapter turning them on is enough
 * (they test the store's storage path, which every adapter shares).
 */
export function describeConformance(title: string, serve: Serve, options: DescribeEnginesOptions = {}): void {
  describeEngines(
    `HTTP conformance: ${title}`,
    (engine) => {
      const start = useServer(engine, serve);
      routeTests(start);
      pathTests(start);
      bodyTests(start);
      queryTests(start);
      orGroupTests(start);
      pagingTests(start);
      errorTests(start);
      authTests(start);
      accessTests(start);
      relationTests(start);
      relationRuleTests(start, engine);
      hookTests(start);
      corsTests(start);
      etagTests(start);
      bulkTests(start);
      budgetTests(start, engine);
      realtimeTests(start);
      realtimeTrustTests(start);
      rateLimitTests(start);
    },
    options,
  );
}
