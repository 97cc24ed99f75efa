import { packageConfig } from '../../vitest.shared';

export default packageConfig('core', { mongoTier: true });
