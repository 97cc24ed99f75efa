import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packagesDir = fileURLToPath(new URL('./packages/', import.meta.url));

/**
 * Shared Vitest settings (`mongoTier`: the project runs suites of `describeEngines`;
 * `driverTiers`: they also run through the official driver, majors 6 and 7, over the wire
 * front of `@store/test-kit`; `driverValues: 'rebuilt'` for suites that call the storage
 * interface directly with the store's BSON values): every `@store/*` import resolves to the package's source,
 * so tests never run against a stale build. (The export-map test imports `dist/`
 * through plain Node processes on purpose.)
 */
export function packageConfig(
  name: string,
  {
    mongoTier = false,
    driverTiers = false,
    driverValues = 'as-given',
  }: { mongoTier?: boolean; driverTiers?: boolean; driverValues?: 'as-given' | 'rebuilt' } = {},
) {
  return defineConfig({
    resolve: {
      alias: [
        { find: /^@store\/auth-magic\/testing$/, replacement: `${packagesDir}auth-magic/src/testing.ts` },
        { find: /^@store\/([a-z-]+)$/, replacement: `${packagesDir}$1/src/index.ts` },
      ],
    },
    test: {
      name,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: 20_000,
      // Finds a MongoDB for the `[mongodb]` tier of `describeEngines` once per run (or says why not).
      globalSetup: mongoTier ? [`${packagesDir}test-kit/src/mongo-global-setup.ts`] : [],
      provide: { storeDriverTiers: { driverTiers, driverValues } },
    },
  });
}
