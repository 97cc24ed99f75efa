import { packageConfig } from '../../vitest.shared';

export default packageConfig('adapter-fetch', { mongoTier: true });
