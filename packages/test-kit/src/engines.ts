/**
 * Runs one suite against every storage engine: always the embedded engine, and a real
 * MongoDB when the globalSetup (`mongo-global-setup.ts`) found one. Otherwise the MongoDB
 * tier is registered as a skipped `describe` whose title carries the reason. On request, the
 * driver-path tiers run it through the official driver (majors 6 and 7) connected to a
 * MongoDB wire-protocol front over the embedded engine (`wire/front.ts`): the store's driver
 * code path, without a mongod.
 *
 * Part of `@store/test-kit`; `vitest.shared.ts` adds its globalSetup (`mongo-global-setup.ts`)
 * to every package project that asks for the MongoDB tier.
 */
import { randomBytes } from 'node:crypto';
import { createEmbeddedDb } from '@store/embedded';
import { MongoClient } from 'mongodb';
import { afterAll, describe, inject } from 'vitest';
import { driverEngine } from './driver-tier';
import type { DescribeEnginesOptions, DriverTierOptions, EngineUnderTest } from './engine-types';
import type { MongoTier } from './mongo-global-setup';

export type { DescribeEnginesOptions, DriverTierOptions, EngineUnderTest } from './engine-types';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The project's defaults for the driver-path tiers of its `describeEngines` suites (`vitest.shared.ts`). */
    storeDriverTiers: Required<DriverTierOptions>;
  }
}

function embeddedEngine(): EngineUnderTest {
  const opened: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
  });
  return {
    name: 'embedded',
    async createDb() {
      const db = createEmbeddedDb();
      opened.push(db);
      return db;
    },
  };
}

/** One client per suite, connected on first use; every database it made is dropped after the suite. */
function mongoEngine(uri: string): EngineUnderTest {
  let client: MongoClient | undefined;
  const names: string[] = [];
  afterAll(async () => {
    if (!client) return;
    const used = client;
    await Promise.all(names.map((name) => used.db(name).dropDatabase()));
    await used.close();
  });
  return {
    name: 'mongodb',
    async createDb() {
      client ??= await new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 }).connect();
      const name = `store_test_${randomBytes(6).toString('hex')}`;
      names.push(name);
      return client.db(name);
    },
  };
}

function unavailableEngine(reason: string): EngineUnderTest {
  return {
    name: 'mongodb',
    createDb: () => Promise.reject(new Error(`MongoDB tier skipped: ${reason}`)),
  };
}

function mongoTier(): MongoTier {
  const tier = inject('storeMongo') as MongoTier | undefined;
  return tier ?? { skip: 'mongo-global-setup.ts is not in this project’s test.globalSetup' };
}

/**
 * Runs `body` once per available engine inside `describe('<title> [<engine>]')`. The mongodb
 * tier runs when MONGODB_URI is set or mongodb-memory-server-core can start a server (found
 * once per run in a Vitest globalSetup, provided to tests with `provide`/`inject`); otherwise
 * it is registered as `describe.skip('<title> [mongodb] skipped: <one-line reason>')` so the
 * skip is reported by name. The driver-path tiers run when `options.driverTiers` (or the
 * project) asks for them.
 */
export function describeEngines(
  title: string,
  body: (engine: EngineUnderTest) => void,
  options: DescribeEnginesOptions = {},
): void {
  describe(`${title} [embedded]`, () => body(embeddedEngine()));
  const project = inject('storeDriverTiers') as DriverTierOptions | undefined;
  if (options.driverTiers ?? project?.driverTiers ?? false) {
    const values = options.driverValues ?? project?.driverValues ?? 'as-given';
    for (const major of [6, 7] as const) {
      describe(`${title} [driver ${major} over embedded]`, () => body(driverEngine(major, values)));
    }
  }
  const tier = mongoTier();
  if ('uri' in tier) {
    const { uri } = tier;
    describe(`${title} [mongodb]`, () => body(mongoEngine(uri)));
  } else {
    describe.skip(`${title} [mongodb] skipped: ${tier.skip}`, () => body(unavailableEngine(tier.skip)));
  }
}
