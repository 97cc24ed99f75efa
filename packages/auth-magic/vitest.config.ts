import { packageConfig } from '../../vitest.shared';

export default packageConfig('auth-magic', { mongoTier: true, driverTiers: true });
