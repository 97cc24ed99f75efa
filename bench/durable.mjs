// node bench/durable.mjs [--quick] [--json]   (also part of `pnpm bench`; --no-durable skips it there)
//
// What durable data costs, against the BUILT packages (`pnpm build` first):
//
// 1. The write table: acknowledged creates/s at 1, 10 and 100 concurrent writers, over HTTP
//    (`store serve --data`, in its own process, rate limits off, keep-alive connections) and
//    in-process (the engine's `insertOne` on a data directory), beside the fsync floor measured
//    in the same run on the same disk: a write + fdatasync loop of records of the journal's size
//    for one create. The floor is one sync at a time whatever the number of writers: only group
//    commit lets N writers pass it. Targets: 1 writer over HTTP >= 0.6x the floor, 100 writers
//    over HTTP >= 3x.
// 2. Import: documents/s of `store import` of IMPORT_DOCS generated documents into a fresh data
//    directory (the binary, from start to exit). Target >= 20,000/s.
// 3. `create` through the store's handler (`POST /posts`, no HTTP) with 10 concurrent clients
//    and with 1: in memory, on disk (`data`), and a lowdb-style contender that rewrites the
//    whole collection as one JSON file (temp file, fsync, rename) after each write, coalescing
//    the writes that arrive while one is under way (as lowdb's steno does).
// 4. Opening a directory of 100,000 documents against `JSON.parse` of the same documents as one
//    file (read included in both), wall and CPU time, target <= 2x (`node --expose-gc
//    bench/open.mjs` runs only this, 1M documents too).
//
// Medians of ROUNDS alternating rounds. With --json the tables go to stderr and the last line of
// stdout is the figures as JSON (for bench/run.mjs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStoreHandler } from '@store/core';
import { openSpeed, openSpeedLine } from './lib/open-speed.mjs';
import {
  fsyncFloor,
  httpRate,
  inProcessRate,
  recordBytes,
  STORE_BIN,
  startServer,
} from './lib/write-load.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const json = args.includes('--json');
const ROUNDS = Number(process.env.ROUNDS ?? (quick ? 1 : 5));
const WRITES = Number(process.env.WRITES ?? (quick ? 500 : 2_000));
const DOCS = Number(process.env.DOCS ?? 100_000);
const IMPORT_DOCS = Number(process.env.IMPORT_DOCS ?? 100_000);
/** Seconds each cell of the write table runs. */
const SECONDS = Number(process.env.SECONDS ?? (quick ? 1 : 2));
const WRITERS = [1, 10, 100];
/** The write table's targets: creates/s over HTTP / the fsync floor, at least, by writers. */
const HTTP_TARGETS = { 1: 0.6, 100: 3 };
const IMPORT_TARGET = 20_000;
const quiet = { warn() {}, error() {} };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const say = json ? (line) => console.error(line) : (line) => console.log(line);
/** Temporary directories of this run, removed at its end. */
const made = [];
const fresh = (prefix) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const perSecond = (rate) => `${Math.round(rate).toLocaleString('en')}/s`;

/** Rows of the write table: per writers, the medians of the floor, HTTP and in-process rates. */
async function writeTable() {
  const bytes = await recordBytes(fresh('bench-record-'));
  const cells = Object.fromEntries(WRITERS.map((n) => [n, { floor: [], http: [], inProcess: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    const floorDir = fresh('bench-floor-');
    const httpDir = fresh('bench-http-');
    const server = await startServer(httpDir);
    try {
      // Warm-up: a fresh process runs its first requests unoptimized.
      await httpRate(server.port, 10, SECONDS / 2);
      if (round === 0) await inProcessRate(fresh('bench-engine-'), 10, SECONDS / 2);
      for (const writers of WRITERS) {
        const cell = cells[writers];
        cell.floor.push(fsyncFloor(floorDir, bytes, SECONDS));
        cell.http.push(await httpRate(server.port, writers, SECONDS));
        cell.inProcess.push(await inProcessRate(fresh('bench-engine-'), writers, SECONDS));
      }
    } finally {
      await server.stop();
    }
  }
  const rows = WRITERS.map((writers) => {
    const { floor, http, inProcess } = cells[writers];
    return { writers, floor: median(floor), http: median(http), inProcess: median(inProcess) };
  });
  return { recordBytes: bytes, rows };
}

/** Makes a node process print its CPU time (`cpu {"user":µs,"system":µs}`) on stderr as it exits. */
const PRINT_CPU_AT_EXIT =
  'data:text/javascript,process.on("exit",()=>process.stderr.write("\\ncpu "+JSON.stringify(process.cpuUsage())+"\\n"))';

/**
 * `store import` of IMPORT_DOCS documents into a fresh data directory, start to exit, and the
 * CPU time it took (steadier than the wall time on a shared machine).
 */
function importRate() {
  const file = join(fresh('bench-import-file-'), 'db.json');
  const posts = Array.from({ length: IMPORT_DOCS }, (_, i) => ({
    id: i,
    title: `post ${i}`,
    views: i % 1000,
    tags: ['a', 'b', `t${i % 50}`],
    author: { name: `author ${i % 100}`, email: `a${i % 100}@example.com` },
  }));
  writeFileSync(file, JSON.stringify({ posts }));
  const seconds = [];
  const cpuSeconds = [];
  for (let round = 0; round < Math.min(ROUNDS, 3); round++) {
    const dir = fresh('bench-import-');
    const started = performance.now();
    const run = spawnSync(
      process.execPath,
      ['--import', PRINT_CPU_AT_EXIT, STORE_BIN, 'import', file, '--data', dir],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`store import failed: ${run.stderr}`);
    seconds.push((performance.now() - started) / 1000);
    const cpu = JSON.parse(/^cpu (.*)$/m.exec(run.stderr)?.[1] ?? '{"user":0,"system":0}');
    cpuSeconds.push((cpu.user + cpu.system) / 1e6);
    rmSync(dir, { recursive: true, force: true });
  }
  const time = median(seconds);
  return { documents: IMPORT_DOCS, seconds: time, cpuSeconds: median(cpuSeconds), rate: IMPORT_DOCS / time };
}

const verdict = (ratio, target) =>
  target === undefined ? '' : `>= ${target}x: ${ratio >= target ? 'met' : 'missed'}`;

/** The write table and the import row as markdown. */
function writeMarkdown({ recordBytes: bytes, rows }, imported) {
  const lines = [
    `Durable writes (\`--data\`): acknowledged creates/s; the floor is a write + fdatasync loop of ${bytes}-byte records on the same disk, one sync at a time.`,
    '',
    '| writers | fsync floor | HTTP (store serve) | HTTP / floor | target | in-process (insertOne) | in-process / floor |',
    '| ------: | ----------: | -----------------: | -----------: | ------ | ---------------------: | -----------------: |',
    ...rows.map(({ writers, floor, http, inProcess }) =>
      [
        writers,
        perSecond(floor),
        perSecond(http),
        `${(http / floor).toFixed(2)}x`,
        verdict(http / floor, HTTP_TARGETS[writers]),
        perSecond(inProcess),
        `${(inProcess / floor).toFixed(2)}x`,
      ]
        .join(' | ')
        .replace(/^/, '| ')
        .replace(/$/, ' |'),
    ),
    '',
    `store import of ${imported.documents.toLocaleString('en')} documents into a fresh data directory: ` +
      `${perSecond(imported.rate)} documents (${imported.seconds.toFixed(1)} s from start to exit, ` +
      `${imported.cpuSeconds.toFixed(1)} s of CPU); ` +
      `target >= ${IMPORT_TARGET.toLocaleString('en')}/s: ${imported.rate >= IMPORT_TARGET ? 'met' : 'missed'}`,
  ];
  return `${lines.join('\n')}\n`;
}

const table = await writeTable();
const imported = importRate();
const markdown = writeMarkdown(table, imported);
say(markdown);

const post = (i) => ({
  method: 'POST',
  path: '/posts',
  rawQuery: '',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ title: `post ${i}`, views: i, tags: ['a', 'b'] }),
});

/** A whole-file JSON store: every write rewrites the file; writes arriving meanwhile share the next rewrite. */
function wholeFileStore(dir) {
  const docs = [];
  const path = join(dir, 'db.json');
  let writing;
  let again = false;
  const rewrite = async () => {
    const handle = await open(`${path}.tmp`, 'w');
    await handle.writeFile(JSON.stringify({ posts: docs }));
    await handle.sync();
    await handle.close();
    renameSync(`${path}.tmp`, path);
  };
  const persist = async () => {
    if (writing) {
      again = true;
      while (writing) await writing;
      if (!again) return;
    }
    again = false;
    writing = rewrite().finally(() => {
      writing = undefined;
    });
    await writing;
  };
  return async (request) => {
    docs.push({ _id: docs.length + 1, ...JSON.parse(request.body) });
    await persist();
    return { status: 201 };
  };
}

const contenders = {
  memory: () => createStoreHandler({ resources: { posts: {} }, logger: quiet }),
  durable: () =>
    createStoreHandler({
      data: fresh('bench-durable-'),
      resources: { posts: {} },
      logger: quiet,
    }),
  'whole-file JSON': () => wholeFileStore(fresh('bench-lowdb-')),
};

/** Requests/s of WRITES creates sent by `clients` concurrent clients. */
async function createRate(make, clients) {
  const handler = make();
  await handler.ready;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < WRITES) {
        const answer = await handler(post(next++));
        if (answer.status !== 201) throw new Error(`create answered ${answer.status}`);
      }
    }),
  );
  const rate = WRITES / ((performance.now() - started) / 1000);
  await handler.close?.();
  return rate;
}

for (const clients of [10, 1]) {
  const rates = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, make] of Object.entries(contenders)) rates[name].push(await createRate(make, clients));
  }
  const memory = median(rates.memory);
  const line = Object.entries(rates)
    .map(
      ([name, values]) => `${name} ${median(values).toFixed(0)}/s (${(median(values) / memory).toFixed(2)}x)`,
    )
    .join(', ');
  say(`create, ${clients} client${clients > 1 ? 's' : ''}, ${WRITES} writes (handler, no HTTP): ${line}`);
}

// Opening a data directory of DOCS documents against JSON.parse of the same documents
// (lib/open-speed.mjs); `node --expose-gc bench/open.mjs --docs=1000000` for 1M (filling that
// directory with random ids takes minutes).
const opened = [];
for (const documents of [DOCS]) {
  opened.push(await openSpeed(documents, documents >= 1_000_000 ? Math.min(ROUNDS, 3) : ROUNDS));
  say(openSpeedLine(opened.at(-1)));
}
const openMarkdown = `\n${opened.map(openSpeedLine).join('\n\n')}\n`;
if (json) {
  const settings = {
    quick,
    rounds: ROUNDS,
    seconds: SECONDS,
    writers: WRITERS,
    importDocuments: IMPORT_DOCS,
  };
  console.log(
    JSON.stringify({
      settings,
      writes: table,
      import: imported,
      open: opened,
      markdown: markdown + openMarkdown,
    }),
  );
}
