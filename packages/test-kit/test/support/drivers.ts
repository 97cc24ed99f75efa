/** The official driver's majors the wire-front tests run through, a front served to one, and a free port for a late start. */
import { createServer } from 'node:net';
import { MongoClient as MongoClient6 } from 'mongodb6';
import { MongoClient as MongoClient7 } from 'mongodb7';
import { afterAll, beforeAll } from 'vitest';
import { startWireFront, type WireFront } from '../../src/wire/front';

/** Both majors typed as driver 7's client (the calls the tests make are the same in both). */
export type Client = MongoClient7;
type ClientClass = new (uri: string, options?: object) => Client;

export const DRIVERS: Array<[string, ClientClass]> = [
  ['driver 6', MongoClient6 as unknown as ClientClass],
  ['driver 7', MongoClient7],
];

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** A wire front and a client connected to it, for the suite that calls {@link servedFront}. */
export interface ServedFront {
  readonly front: WireFront;
  readonly client: Client;
}

/**
 * Starts a wire front and connects a `MongoClient` to it before the enclosing suite's tests, and
 * closes both after them.
 */
export function servedFront(MongoClient: ClientClass): ServedFront {
  const served = {} as { front: WireFront; client: Client };
  beforeAll(async () => {
    served.front = await startWireFront();
    served.client = await new MongoClient(served.front.uri, { serverSelectionTimeoutMS: 2_000 }).connect();
  });
  afterAll(async () => {
    await served.client.close();
    await served.front.close();
  });
  return served;
}
