// The store server of bench/hold.mjs, in its own process (started with --expose-gc): the
// store's Express adapter over the embedded engine with the store's default options (budgets,
// `maxBulk` unless the parent sets it), on an ephemeral port of 127.0.0.1, loaded from the BUILT
// packages of the repository the parent names (`root`), so one script measures two trees.
// It holds `posts` (the other client reads them), and `drafts`, or `albums` with their
// `photos`, when `collections` names them. The parent sends `{ root, scale, collections,
// maxBulk }` and receives `{ port, loadSeconds, memory }` (or `{ error }`); then
// `{ reseed: 'drafts' }` puts the deleted drafts back (`{ reseeded }`), `'settle'` runs full
// garbage collections (`{ settled, memory }`), and `'stop'` ends it.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { albums, drafts, insertPhotos, posts } from './hold-data.mjs';

const quiet = { warn: () => {}, error: (message, ...details) => console.error(message, ...details) };

/** `packages/<name>/dist/index.js` of the tree at `root` (the files `pnpm build` writes there). */
const builtPackage = (root, name) =>
  import(pathToFileURL(join(root, 'packages', name, 'dist/index.js')).href);

/** The resources: `albums` declares its `photos` relation (indexed at start-up, as a user would). */
const RESOURCES = { posts: {}, drafts: {}, albums: { population: { photos: {} } }, photos: {} };

/** The process's RSS now and at its peak, in bytes. */
const memory = () => ({ rss: process.memoryUsage().rss, maxRss: process.resourceUsage().maxRSS * 1024 });

async function insertAll(collection, docs, batch = 5000) {
  for (let i = 0; i < docs.length; i += batch) await collection.insertMany(docs.slice(i, i + batch));
}

async function start({ root, scale, collections, maxBulk }) {
  const [{ createStore }, { createEmbeddedDb }] = await Promise.all(
    ['adapter-express', 'embedded'].map((name) => builtPackage(root, name)),
  );
  const began = performance.now();
  const db = createEmbeddedDb();
  await insertAll(db.collection('posts'), posts(scale.posts));
  const draftList = collections.includes('drafts') ? drafts(scale.posts) : [];
  await insertAll(db.collection('drafts'), draftList);
  if (collections.includes('photos')) {
    const albumList = albums(scale.albums);
    await insertAll(db.collection('albums'), albumList);
    await insertPhotos(albumList, scale, (docs) => db.collection('photos').insertMany(docs));
  }
  const deleted = draftList.filter((draft) => draft.half === 0);
  const store = createStore({
    db,
    resources: RESOURCES,
    logger: quiet,
    ...(maxBulk === undefined ? {} : { maxBulk }),
  });
  await store.ready;
  const loadSeconds = (performance.now() - began) / 1000;
  const app = express();
  app.use(store);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  process.on('message', (message) => {
    if (message?.reseed === 'drafts') {
      const collection = db.collection('drafts');
      collection
        .deleteMany({ half: 0 })
        .then(() => insertAll(collection, deleted))
        .then(
          () => process.send({ reseeded: deleted.length }),
          (error) => process.send({ error: String(error?.stack ?? error) }),
        );
    }
    if (message === 'settle') {
      for (let i = 0; i < 3; i++) globalThis.gc();
      process.send({ settled: true, memory: memory() });
    }
    if (message === 'stop') {
      server.close();
      server.closeAllConnections();
      store.close().finally(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
  globalThis.gc();
  return { port: server.address().port, loadSeconds, memory: memory() };
}

if (typeof globalThis.gc !== 'function') {
  console.error('hold-server.mjs runs with --expose-gc (bench/hold.mjs starts it so)');
  process.exit(1);
}
process.once('message', (message) => {
  start(message).then(
    (started) => process.send(started),
    (error) => process.send({ error: error?.stack ?? String(error) }),
  );
});
