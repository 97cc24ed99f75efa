import { packageConfig } from '../../vitest.shared';

export default packageConfig('adapter-express', { mongoTier: true });
