// A store server for bench/realtime-memory.mjs, in its own process started with `--expose-gc`:
// the store's Express adapter over the embedded engine, on an ephemeral port of 127.0.0.1,
// loaded from the BUILT packages of the repository the parent names (`root`), so one script
// measures two trees (the code before a change and after it). The parent sends
// `{ root, streams, maxQueuedBytes }` and receives `{ port }` (or `{ error }`); then `'memory'`
// answers `{ memory }` (`process.memoryUsage()` after full garbage collections) and `'stop'` ends it.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { collectedMemory } from './collected-memory.mjs';
import { realtimeLimits } from './realtime-limits.mjs';

const quiet = { warn: () => {}, error: (message, ...details) => console.error(message, ...details) };

/** `packages/<name>/dist/index.js` of the tree at `root` (the files `pnpm build` writes there). */
const builtPackage = (root, name) =>
  import(pathToFileURL(join(root, 'packages', name, 'dist/index.js')).href);

async function start({ root, streams, maxQueuedBytes }) {
  const [{ createStore }, { createEmbeddedDb }, { resolveStoreOptions }] = await Promise.all(
    ['adapter-express', 'embedded', 'core'].map((name) => builtPackage(root, name)),
  );
  const store = createStore({
    db: createEmbeddedDb(),
    resources: { items: {}, docs: {} },
    logger: quiet,
    realtime: { ...realtimeLimits(resolveStoreOptions, streams), maxQueuedBytes },
  });
  await store.ready;
  const app = express();
  app.use(store);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  process.on('message', (message) => {
    if (message === 'memory') collectedMemory().then((memory) => process.send({ memory }));
    if (message === 'stop') {
      server.close();
      server.closeAllConnections();
      store.close().finally(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
  return server.address().port;
}

if (typeof globalThis.gc !== 'function') {
  console.error('memory-server.mjs runs with --expose-gc (bench/lib/memory.mjs starts it so)');
  process.exit(1);
}
process.once('message', (message) => {
  start(message).then(
    (port) => process.send({ port }),
    (error) => process.send({ error: error?.stack ?? String(error) }),
  );
});
