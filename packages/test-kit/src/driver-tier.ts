/**
 * The driver-path tiers of `describeEngines`: the official MongoDB driver, majors 6 and 7
 * (aliased dev dependencies `mongodb6` / `mongodb7`), connected to a wire front over the
 * embedded engine (`wire/front.ts`). One front per test file, shared by its suites; one client
 * per suite and tier.
 */
import { randomBytes } from 'node:crypto';
import type { StoreDb } from '@store/common';
import { afterAll } from 'vitest';
import { convertingDb, type DriverBsonModule } from './driver-values';
import type { DriverTierOptions, EngineUnderTest } from './engine-types';
import { startWireFront, type WireFront } from './wire/front';

/** The wire front of this test file, shared by its suites' driver tiers and closed after the last. */
let sharedFront: { started: Promise<WireFront>; users: number } | undefined;

function acquireFront(): Promise<WireFront> {
  sharedFront ??= { started: startWireFront(), users: 0 };
  sharedFront.users += 1;
  return sharedFront.started;
}

async function releaseFront(): Promise<void> {
  const front = sharedFront;
  if (!front) return;
  front.users -= 1;
  if (front.users > 0) return;
  sharedFront = undefined;
  await (await front.started).close();
}

/** A connected MongoClient, as the tier uses it, and its driver's `BSON`. */
interface DriverClient {
  db(name: string): StoreDb & { dropDatabase(): Promise<unknown> };
  close(): Promise<void>;
}

/** The MongoClient of a driver major (loaded only by suites that run the tier). */
async function connectDriver(
  major: 6 | 7,
  uri: string,
): Promise<{ client: DriverClient; bson: DriverBsonModule }> {
  const { MongoClient, BSON } = major === 6 ? await import('mongodb6') : await import('mongodb7');
  const client = await new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 }).connect();
  return { client, bson: BSON };
}

/** One client of driver `major` per suite, over the file's wire front; its databases are dropped after the suite. */
export function driverEngine(major: 6 | 7, values: DriverTierOptions['driverValues']): EngineUnderTest {
  let connected: ReturnType<typeof connectDriver> | undefined;
  const names: string[] = [];
  afterAll(async () => {
    if (!connected) return;
    try {
      const { client } = await connected;
      try {
        await Promise.all(names.map((name) => client.db(name).dropDatabase()));
      } finally {
        await client.close();
      }
    } finally {
      await releaseFront();
    }
  });
  return {
    name: `driver ${major} over embedded`,
    async createDb() {
      connected ??= acquireFront().then((front) => connectDriver(major, front.uri));
      const { client, bson } = await connected;
      const name = `store_test_${randomBytes(6).toString('hex')}`;
      names.push(name);
      return values === 'rebuilt' ? convertingDb(client.db(name), bson) : client.db(name);
    },
  };
}
