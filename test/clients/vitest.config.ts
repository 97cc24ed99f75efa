import { mergeConfig } from 'vitest/config';
import { packageConfig } from '../../vitest.shared';

// `@store/*` resolve to the packages' sources (as in every package's tests); the client libraries
// are the real ones, from this project's dev dependencies.
export default mergeConfig(packageConfig('clients'), { test: { include: ['*.test.ts'] } });
