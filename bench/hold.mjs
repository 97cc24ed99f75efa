// node bench/hold.mjs [--quick] [--rows=regex-or,or-contains-total,populate,bulk-patch,bulk-delete]
//   [--posts=100000] [--albums=1000] [--photos-per-album=10] [--photo-kb=45] [--seconds=5]
//   [--max-bulk=N] [--compare=<old root>] [--root=<root>] [--json]
//
// Does one heavy request hold the other clients? One store server process (the Express adapter
// over the embedded engine, the store's default options: bench/lib/hold-server.mjs) holding
// `--posts` small posts, as many drafts, and `--albums` albums with `--photos-per-album` photos
// of `--photo-kb` kB each. For each heavy request (bench/lib/hold-data.mjs), on a fresh server:
// 1. idle: a second client (bench/lib/hold-probe.mjs, its own process) asks `GET /posts/<id>`
//    (a random id each time), one request after the other, for `--seconds`: its p99;
// 2. held: the same client again while this process sends the heavy request, one after the
//    other, at least 3 times and for at least `--seconds` (not after one goes unanswered for
//    2 minutes): the p99 of the client's requests that overlapped a heavy request, the heavy
//    request's status (with its problem `code`) and time.
// Prints, per heavy request, the other client's p99 during it / its idle p99, and the heavy
// request's own outcome (`422 budget_exceeded in 40 ms`). The target: that p99 at most 50 ms
// (bench/findings.md says why). `--quick` scales to 10,000 posts and 100 albums, 2 s windows.
//
// Loads the BUILT packages (`packages/*/dist`) of the repository at `--root` (this one by
// default): `--compare=/tmp/base` measures that tree (old) first and `--root` (new) after it,
// so one run compares the code before a change with the code after. `--max-bulk` sets the
// store's `maxBulk` (default: the store's own) to measure the bulk writes themselves where a
// store refuses them by default. `pnpm bench` runs it with `--json`.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './lib/args.mjs';
import { heavyRequests } from './lib/hold-data.mjs';
import { stopper } from './lib/measure.mjs';
import { holdLine } from './lib/report.mjs';
import { builtTrees } from './lib/trees.mjs';

const { args, option, number } = benchArgs();
const SCALE = {
  posts: Math.round(number('posts', 100_000, 10_000)),
  albums: Math.round(number('albums', 1000, 100)),
  perAlbum: Math.round(number('photos-per-album', 10, 10)),
  photoBytes: Math.round(number('photo-kb', 45, 45) * 1024),
};
const SECONDS = number('seconds', 5, 2);
/** Each heavy request runs at least this many times, however long the window. */
const MIN_REPEATS = 3;
/** A heavy request unanswered this long counts as failed. */
const HEAVY_TIMEOUT_MS = 120_000;
const MAX_BULK = option('max-bulk') === undefined ? undefined : Math.round(number('max-bulk'));
const ROWS = heavyRequests(SCALE);
const ONLY = option('rows')?.split(',') ?? ROWS.map((row) => row.id);
const unknown = ONLY.filter((id) => !ROWS.some((row) => row.id === id));
if (unknown.length > 0) {
  console.error(`--rows: unknown ${unknown.join(', ')} (${ROWS.map((row) => row.id).join(', ')})`);
  process.exit(1);
}

const SERVER = fileURLToPath(new URL('./lib/hold-server.mjs', import.meta.url));
const PROBE = fileURLToPath(new URL('./lib/hold-probe.mjs', import.meta.url));
const TREES = builtTrees(option('compare'), option('root'));

const log = (line) => console.error(line);
/** Wall-clock milliseconds with sub-millisecond precision, the clock of the probe's samples too. */
const now = () => performance.timeOrigin + performance.now();
const pause = (ms) => new Promise((done) => setTimeout(done, ms));

/** Sends `message` to `child` and resolves its first answer that `accept`s (rejects on `{ error }` or exit). */
function ask(child, message, accept) {
  return new Promise((resolve, reject) => {
    const onMessage = (answer) => {
      if (answer?.error !== undefined) {
        cleanup();
        reject(new Error(answer.error));
      } else if (accept(answer)) {
        cleanup();
        resolve(answer);
      }
    };
    const onExit = (code) => {
      cleanup();
      reject(new Error(`${child.spawnfile} exited (${code})`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(message);
  });
}

/**
 * The store server of the tree at `root` holding `posts` and `collections`, loaded:
 * `{ port, loadSeconds, memory, exited(), reseed, settle, stop }` (`exited()`: its exit code
 * or signal once it has exited, else undefined).
 */
async function startServer(root, collections) {
  const child = fork(SERVER, [], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let exit;
  child.once('exit', (code, signal) => {
    exit = code ?? signal;
  });
  const stop = stopper(child);
  try {
    const started = await ask(
      child,
      { root, scale: SCALE, collections, maxBulk: MAX_BULK },
      (answer) => answer.port,
    );
    return {
      ...started,
      exited: () => exit,
      reseed: (collection) => ask(child, { reseed: collection }, (answer) => answer.reseeded !== undefined),
      settle: () => ask(child, 'settle', (answer) => answer.settled).then((answer) => answer.memory),
      stop: () => (exit === undefined ? stop() : Promise.resolve()),
    };
  } catch (error) {
    await stop();
    throw new Error(`the store server on ${root} failed to start: ${error.message}`);
  }
}

/** The other client, in its own process: `{ run, halt (resolves its samples), stop }`. */
async function startProbe(port) {
  const child = fork(PROBE, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await ask(child, { port, posts: SCALE.posts }, (answer) => answer.ready);
  return {
    run: () => child.send('run'),
    halt: () => ask(child, 'halt', (answer) => answer.samples).then((answer) => answer.samples),
    stop: stopper(child),
  };
}

/** What an answer says in a few words: the problem's `code`, or what a bulk change did. */
function readAnswer(status, head) {
  try {
    const body = JSON.parse(head);
    if (status >= 300) return { code: body.code ?? null };
    const count = (n) => Number(n).toLocaleString('en-US');
    if (body.modified !== undefined) return { code: null, detail: `modified ${count(body.modified)}` };
    if (body.deleted !== undefined) return { code: null, detail: `deleted ${count(body.deleted)}` };
  } catch {
    // A long answer, read in part: nothing more to say than its size.
  }
  return { code: null };
}

/** One heavy request, its answer read to the end (only its first 4 kB kept): `{ start, end, status, code, bytes, detail }`. */
async function heavyOnce(port, { method, path, body }) {
  const start = now();
  let bytes = 0;
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(HEAVY_TIMEOUT_MS),
    });
    const decoder = new TextDecoder();
    let head = '';
    for await (const chunk of response.body ?? []) {
      bytes += chunk.length;
      if (head.length < 4096) head += decoder.decode(chunk, { stream: true });
    }
    return { start, end: now(), status: response.status, bytes, ...readAnswer(response.status, head) };
  } catch (error) {
    return { start, end: now(), status: 0, code: error?.name ?? 'error', bytes };
  }
}

const percentile = (sorted, p) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** p50 and p99 (ms) of samples `[sent, answered, status]`. */
function latency(samples) {
  const sorted = samples.map(([sent, answered]) => answered - sent).sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

/** The heavy requests' outcomes, grouped by status and code: `[{ status, code, count, medianMs, maxMs, bytes, detail }]`. */
function outcomes(runs) {
  const groups = new Map();
  for (const run of runs) {
    const key = `${run.status} ${run.code ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  return [...groups.values()].map((group) => {
    const times = group.map((run) => run.end - run.start).sort((a, b) => a - b);
    return {
      status: group[0].status,
      code: group[0].code ?? null,
      count: group.length,
      medianMs: times[times.length >> 1],
      maxMs: times.at(-1),
      bytes: group[0].bytes,
      detail: group[0].detail ?? null,
    };
  });
}

/** The other client's requests that overlapped a heavy request. */
const during = (samples, runs) =>
  samples.filter(([sent, answered]) => runs.some((run) => sent < run.end && answered > run.start));

/** One heavy request's row on `server`: the idle window, then the held window. */
async function measureWindows(server, probe, row) {
  // Warms up the other client's route before the idle window.
  probe.run();
  await pause(Math.min(1000, SECONDS * 250));
  await probe.halt();
  await server.settle();
  probe.run();
  const idleStart = now();
  await pause(SECONDS * 1000);
  const idleSamples = await probe.halt();
  const idleSeconds = (now() - idleStart) / 1000;

  await server.settle();
  const samples = [];
  const runs = [];
  probe.run();
  const heldStart = now();
  // Until the window is over; stops after a heavy request without an answer (a server that has
  // gone, or one still at work on a request given up on: the next would pile on it).
  const answered = () => runs.length === 0 || runs.at(-1).status !== 0;
  while ((runs.length < MIN_REPEATS || now() - heldStart < SECONDS * 1000) && answered()) {
    // The deleted drafts come back between two deletes, the other client halted meanwhile.
    const last = runs.at(-1)?.status;
    if (row.reseed !== undefined && last >= 200 && last < 300) {
      samples.push(...(await probe.halt()));
      await server.reseed(row.reseed);
      probe.run();
    }
    runs.push(await heavyOnce(server.port, row.request(runs.length)));
  }
  samples.push(...(await probe.halt()));
  const heldSeconds = (now() - heldStart) / 1000;
  // A server that has gone (or goes now) has no memory to report.
  const memory = server.exited() === undefined ? await server.settle().catch(() => null) : null;
  const idle = latency(idleSamples);
  const held = latency(during(samples, runs));
  const failed = [...idleSamples, ...samples].filter(([, , status]) => status !== 200);
  return {
    id: row.id,
    label: row.label,
    seconds: { idle: idleSeconds, held: heldSeconds },
    idle,
    during: held,
    ratio: held.p99 === null || !idle.p99 ? null : held.p99 / idle.p99,
    heavy: outcomes(runs),
    otherFailures: failed.length,
    otherStatuses: [
      ...new Set(
        failed.map(([, , status, reason]) => (status === 0 ? `no answer (${reason})` : `status ${status}`)),
      ),
    ],
    serverExited: memory === null ? (server.exited() ?? 'unknown') : null,
    loaded: { seconds: server.loadSeconds, rss: server.memory.rss },
    memory,
  };
}

const mib = (bytes) => `${Math.round(bytes / 2 ** 20)} MiB`;

/** One heavy request's row on a fresh server of the tree at `root` (a row that kills its server spoils no other). */
async function measureRow(label, root, row) {
  const server = await startServer(root, row.collections ?? []);
  try {
    log(
      `${label} ${row.id}: loaded in ${server.loadSeconds.toFixed(1)} s, server RSS ${mib(server.memory.rss)}`,
    );
    const probe = await startProbe(server.port);
    try {
      const measured = await measureWindows(server, probe, row);
      log(`${label} ${row.id}: ${holdLine(measured)}`);
      return measured;
    } finally {
      await probe.stop();
    }
  } finally {
    await server.stop();
  }
}

async function measureTree({ label, root }) {
  const rows = [];
  for (const row of ROWS.filter((each) => ONLY.includes(each.id)))
    rows.push(await measureRow(label, root, row));
  return { label, root, rows };
}

const trees = [];
for (const tree of TREES) trees.push(await measureTree(tree));
const settings = { ...SCALE, seconds: SECONDS, minRepeats: MIN_REPEATS, maxBulk: MAX_BULK ?? null };
if (args.includes('--json')) {
  console.log(JSON.stringify({ settings, trees }));
} else {
  const sizes = Object.entries(settings).map(([name, value]) => `${name} ${value}`);
  console.log(
    `\nOne heavy request against a second client's sequential GET /posts/<id> (${sizes.join(', ')}):`,
  );
  for (const tree of trees) {
    console.log(`\n${tree.label} (${tree.root}):`);
    for (const row of tree.rows) console.log(`- ${holdLine(row)}`);
  }
}
