// A child process serving one contender over one data set, on an ephemeral port of 127.0.0.1.
// The parent sends `{ contender, dataset, engine }` and receives `{ port }` (or `{ error }`).
// One process per contender, so no contender shares an event loop with another or with the
// load generator.
import { createEmbeddedDb } from '@store/embedded';
import { MongoClient } from 'mongodb';
import { CONTENDERS } from './contenders.mjs';
import { DATASETS } from './data.mjs';

/** Inserts every collection through the storage interface (a driver `Db` or the embedded db). */
async function load(db, collections) {
  for (const [name, docs] of Object.entries(collections)) {
    const collection = db.collection(name);
    if (typeof collection.insertMany === 'function') {
      await collection.deleteMany({});
      for (let i = 0; i < docs.length; i += 5000) await collection.insertMany(docs.slice(i, i + 5000));
    } else {
      for (const doc of docs) await collection.insertOne({ ...doc });
    }
  }
}

/** The engine a contender runs on: an embedded db, or its own database on `MONGODB_URI`. */
async function openEngine(engine, contender) {
  if (engine === 'embedded') return { db: createEmbeddedDb(), close: async () => {} };
  const client = await new MongoClient(process.env.MONGODB_URI).connect();
  const base = process.env.MONGODB_DB ?? 'store_bench';
  const db = client.db(`${base}_${contender}`);
  return {
    db,
    close: async () => {
      await db.dropDatabase().catch(() => {});
      await client.close();
    },
  };
}

async function start({ contender, dataset, engine }) {
  const collections = DATASETS[dataset]();
  const { engine: onEngine, start: startApp } = CONTENDERS[contender];
  const engineHandle = onEngine ? await openEngine(engine, contender) : undefined;
  if (engineHandle) await load(engineHandle.db, structuredClone(collections));
  const started = await startApp({ db: engineHandle?.db, collections, dataset });
  // An app to listen with, or a contender already listening on its own (the `store` command).
  const server = started.app?.listen(0, '127.0.0.1');
  if (server) await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const stop = async () => {
    server?.close();
    server?.closeAllConnections?.();
    await started.close();
    await engineHandle?.close();
    process.exit(0);
  };
  process.on('message', (message) => message === 'stop' && stop());
  process.on('disconnect', () => process.exit(0));
  return server ? server.address().port : started.port;
}

process.once('message', (message) => {
  start(message).then(
    (port) => process.send({ port }),
    (error) => process.send({ error: error?.stack ?? String(error) }),
  );
});
