import { packageBuild } from '../../tsup.base';

// `src/testing.ts` is the `@store/auth-magic/testing` entry point.
export default packageBuild(['src/index.ts', 'src/testing.ts']);
