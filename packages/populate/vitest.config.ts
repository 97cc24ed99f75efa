import { packageConfig } from '../../vitest.shared';

export default packageConfig('populate', { mongoTier: true, driverTiers: true, driverValues: 'rebuilt' });
