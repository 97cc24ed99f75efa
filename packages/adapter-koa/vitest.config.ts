import { mergeConfig } from 'vitest/config';
import { packageConfig } from '../../vitest.shared';

export default mergeConfig(packageConfig('adapter-koa'), {
  test: {
    // The conformance suite runs through core's `describeEngines`, whose MongoDB tier is found here.
    globalSetup: ['../core/test/support/mongo-global-setup.ts'],
  },
});
