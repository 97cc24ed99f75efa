import { packageConfig } from '../../vitest.shared';

export default packageConfig('adapter-koa', { mongoTier: true });
