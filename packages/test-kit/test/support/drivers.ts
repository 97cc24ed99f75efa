/** The official driver's majors the wire-front tests run through, and a free port for a late start. */
import { createServer } from 'node:net';
import { MongoClient as MongoClient6 } from 'mongodb6';
import { MongoClient as MongoClient7 } from 'mongodb7';

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
