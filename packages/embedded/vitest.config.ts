import { packageConfig } from '../../vitest.shared';

export default packageConfig('embedded', { mongoTier: true, driverTiers: true, driverValues: 'rebuilt' });
