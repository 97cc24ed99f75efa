import { mergeConfig } from 'vitest/config';
import { packageConfig } from '../../vitest.shared';

export default mergeConfig(packageConfig('core'), {
  test: {
    // Finds a MongoDB for the `[mongodb]` tier of `describeEngines` once per run (or says why not).
    globalSetup: ['./test/support/mongo-global-setup.ts'],
  },
});
