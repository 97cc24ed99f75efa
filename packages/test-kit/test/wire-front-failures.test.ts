/**
 * The wire front's failures as a driver meets them, majors 6 and 7: the failCommand fail point
 * (an error code, a closed connection, a blocked command) and a front that starts after its
 * client began waiting for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWireFront, type WireFront } from '../src/wire/front';
import { type Client, DRIVERS, freePort } from './support/drivers';

describe.each(DRIVERS)('failCommand through the %s', (_name, MongoClient) => {
  let front: WireFront;
  let client: Client;
  const dbNames: string[] = [];
  const freshDb = () => {
    dbNames.push(`failures_${dbNames.length + 1}`);
    return client.db(dbNames.at(-1));
  };

  beforeAll(async () => {
    front = await startWireFront();
    client = await new MongoClient(front.uri, { serverSelectionTimeoutMS: 2_000 }).connect();
  });
  afterAll(async () => {
    await client.close();
    await front.close();
  });

  it('fails a command with the code failCommand names (50, MaxTimeMSExpired), then no more', async () => {
    const posts = freshDb().collection('posts');
    await client.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['find'], errorCode: 50 },
    });
    await expect(posts.find({}, { maxTimeMS: 100 }).toArray()).rejects.toMatchObject({
      code: 50,
      codeName: 'MaxTimeMSExpired',
    });
    expect(await posts.find({}).toArray()).toEqual([]);
  });

  it('closes the connection of a command failCommand names with closeConnection', async () => {
    const posts = freshDb().collection('posts');
    await client.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['insert'], closeConnection: true },
    });
    await expect(posts.insertOne({ _id: 1 } as never)).rejects.toMatchObject({ name: 'MongoNetworkError' });
    await posts.insertOne({ _id: 2 } as never);
    expect(await posts.find({}).toArray()).toEqual([{ _id: 2 }]);
  });

  it('holds a command failCommand blocks past the socket timeout of the client', async () => {
    const db = freshDb();
    await client.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['count'], blockConnection: true, blockTimeMS: 1_000 },
    });
    const impatient = await new MongoClient(front.uri, { socketTimeoutMS: 100 }).connect();
    try {
      const count = impatient.db(db.databaseName).command({ count: 'posts' });
      await expect(count).rejects.toMatchObject({ name: 'MongoNetworkTimeoutError' });
    } finally {
      await impatient.close();
    }
  });
});

describe.each(DRIVERS)('a wire front started late, through the %s', (_name, MongoClient) => {
  it('is reached by a client that was waiting for it', async () => {
    const port = await freePort();
    const client = new MongoClient(`mongodb://127.0.0.1:${port}/?directConnection=true`, {
      serverSelectionTimeoutMS: 10_000,
      heartbeatFrequencyMS: 500,
    });
    const ping = client.db('admin').command({ ping: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const front = await startWireFront({ port });
    try {
      expect(await ping).toMatchObject({ ok: 1 });
    } finally {
      await client.close();
      await front.close();
    }
  });
});
