// How bench/scale.mjs starts its servers: the seed file of each size, and each contender as its
// own process over it, timed from its spawn to its first answered request (scale.mjs measures the
// rest). The `store` binary runs with scale-probe.mjs preloaded, json-server in scale-server.mjs,
// both with `--expose-gc`, so `memory()` answers after full garbage collections.
import { fork } from 'node:child_process';
import { closeSync, fsyncSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { forJsonServer, items, sampleIds } from './data.mjs';
import { LABELS } from './scale-report.mjs';

export const STORE_BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
const SERVER = fileURLToPath(new URL('./scale-server.mjs', import.meta.url));
const PROBE = pathToFileURL(fileURLToPath(new URL('./scale-probe.mjs', import.meta.url))).href;
/** How long a server may take to answer its first request. */
const START_TIMEOUT_MS = 5 * 60_000;
/** The equality measure's value: `n` is 0..999, so about one document in 1,000 matches. */
const EQUAL_N = 500;

const SERVER_ARGS = { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: ['--expose-gc'] };

/**
 * The contenders: how each starts over a seed file on a port, and its paths for the equality
 * and range + sort measures (get-by-id is `/items/<id>` for all).
 */
export const SCALE_CONTENDERS = {
  storeCli: {
    // The binary a user runs, in memory, rate limits off (one load generator at thousands of
    // requests a second would be answered 429), every other option at its default.
    spawn: ({ file, port, dir }) =>
      fork(
        STORE_BIN,
        [
          'serve',
          '--seed',
          file,
          '--config',
          join(dir, 'store.config.mjs'),
          '--port',
          `${port}`,
          '--host',
          '127.0.0.1',
        ],
        {
          ...SERVER_ARGS,
          execArgv: ['--expose-gc', '--import', PROBE],
          env: { ...process.env, STORE_DATA: '' },
        },
      ),
    equality: `/items?n=${EQUAL_N}&$limit=20`,
    range: '/items?n:gte=501&$sort=-n&$limit=20',
  },
  jsonServer: {
    spawn: ({ file, port, dir }) => fork(SERVER, ['jsonServer', file, `${port}`, dir], SERVER_ARGS),
    equality: `/items?n=${EQUAL_N}&_limit=20`,
    range: '/items?n_gte=501&_sort=n&_order=desc&_limit=20',
  },
  jsonServerV1: {
    spawn: ({ file, port, dir }) => fork(SERVER, ['jsonServerV1', file, `${port}`, dir], SERVER_ARGS),
    equality: `/items?n=${EQUAL_N}&_page=1&_per_page=20`,
    range: '/items?n:gte=501&_sort=-n&_page=1&_per_page=20',
  },
};

/**
 * Writes `count` items as json-server's `db.json` (`{ "items": [...] }`, `id` for `_id`, which
 * `store serve --seed` stores as `_id` and shows as `id`) in `dir`, in `_id` order. Returns the
 * file, a sample of ids to walk, and the path that proves the server answers.
 */
export function writeSeed(dir, count) {
  const docs = items(count).sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  const file = join(dir, `db-${count}.json`);
  // Written through to the disk before any contender starts: the first one timed would otherwise
  // read it while the system still writes it back (a seconds-long stall at a million documents).
  const fd = openSync(file, 'w');
  try {
    writeFileSync(fd, JSON.stringify(forJsonServer({ items: docs })));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const ids = count === 0 ? [] : sampleIds(docs);
  return { file, count, ids, probe: count === 0 ? '/items' : `/items/${ids[0]}` };
}

/**
 * The folder the servers share: the store's config, json-server v1's empty `public`. The store's
 * config turns the rate limits off (one load generator) and raises `budgets.examined` past the
 * largest table: by default the store refuses a scan of more than a million documents (422
 * `budget_exceeded`), and the table measures how the engine's scans grow, not that policy.
 */
export function prepareDir(dir) {
  writeFileSync(
    join(dir, 'store.config.mjs'),
    'export default { rateLimit: false, budgets: { examined: 100_000_000 } };\n',
  );
  mkdirSync(join(dir, 'public'), { recursive: true });
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `path` every 10 ms until it answers 200; the time it did, in `performance.now()` terms. */
async function firstAnswer(port, path, state) {
  const deadline = performance.now() + START_TIMEOUT_MS;
  for (;;) {
    if (state.exited !== undefined) throw new Error(`exited (${state.exited}) before answering`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      await response.arrayBuffer();
      if (response.ok) return performance.now();
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) throw new Error(`no answer after ${START_TIMEOUT_MS / 1000} s`);
    await sleep(10);
  }
}

/** Starts contender `name` over `seed`: `{ port, startupMs, memory(), stop() }` once it answers. */
export async function startContender(name, seed, dir) {
  const port = await freePort();
  const began = performance.now();
  const child = SCALE_CONTENDERS[name].spawn({ file: seed.file, port, dir });
  const state = {};
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      state.exited = code ?? signal;
      resolve();
    }),
  );
  const stop = async () => {
    if (state.exited === undefined) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const answered = await firstAnswer(port, seed.probe, state);
    const memory = () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve(message.memory));
        child.send('memory');
      });
    return { name, port, startupMs: answered - began, memory, stop };
  } catch (error) {
    await stop();
    throw new Error(`${LABELS[name]} over ${seed.count} documents: ${error.message}`);
  }
}
