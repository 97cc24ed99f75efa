/**
 * `@store/test-kit` (private): the test machinery every package of the workspace shares, imported
 * by package name. `describeEngines` runs a suite on every storage engine; `describeConformance`
 * runs the HTTP conformance suite against an adapter's server; `startSmtpServer` is a real SMTP
 * server on loopback; `startWireFront` is a MongoDB wire-protocol front over the embedded engine
 * (the driver-path tier of `describeEngines`). The MongoDB tier's globalSetup is `src/mongo-global-setup.ts`
 * (`vitest.shared.ts` adds it).
 */

export {
  type DescribeEnginesOptions,
  type DriverTierOptions,
  describeEngines,
  type EngineUnderTest,
} from './engines';
export { type EventClient, openEvents, type StreamEvent } from './http/event-client';
export { listenServed, type Serve, type Served, type ServeOptions } from './http/harness';
export { describeConformance } from './http/suite';
export type { MongoTier } from './mongo-global-setup';
export { startSmtpServer, type TestSmtpServer } from './smtp';
export { startWireFront, type WireFront, type WireFrontOptions } from './wire/front';
