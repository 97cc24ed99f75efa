import { mergeConfig } from 'vitest/config';
import { packageConfig } from '../../vitest.shared';

export default mergeConfig(packageConfig('populate'), {
  test: {
    // Finds a MongoDB for the `[mongodb]` tier of core's `describeEngines` once per run (or says why not).
    globalSetup: ['../core/test/support/mongo-global-setup.ts'],
  },
});
