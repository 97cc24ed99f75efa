/**
 * `@store/test-kit` (private): the test machinery every package of the workspace shares, imported
 * by package name. `describeEngines` runs a suite on every storage engine; the MongoDB tier's
 * globalSetup is `@store/test-kit/mongo-global-setup` (vitest.shared.ts adds it).
 */

export { describeEngines, type EngineUnderTest } from './engines';
export type { MongoTier } from './mongo-global-setup';
