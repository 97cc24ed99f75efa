// What the number of documents costs (bench/scale.mjs): for each size, one `db.json` of
// `items(n)` (data.mjs) written once, then `store serve --seed` in memory and json-server 0.17
// and v1, each in its own process reading that file, measured for
// - start-up: from the process's spawn to its first answered `GET /items/<id>` (200);
// - RSS per document: the process's RSS after start-up and full garbage collections, minus the
//   RSS of the same server over an empty `items`, divided by the documents;
// - get-by-id, equality (`n=500`, a page of 20) and range + sort (`n` >= 501, sorted by `n`
//   descending, 20): requests/s (autocannon, or one request at a time for slow requests), every
//   contender's answer checked equal first.
// `n` is indexed nowhere. The documents are written in `_id` order, the store's default order,
// so an unsorted page (equality) holds the same documents in every contender.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, requestOnce } from './measure.mjs';
import { median } from './report.mjs';
import { prepareDir, SCALE_CONTENDERS, startContender, writeSeed } from './scale-start.mjs';

/** Connections of an autocannon run. */
export const CONNECTIONS = 10;
/**
 * Past this time for one request, a measure is timed one request at a time: 10 queued requests of
 * 20 ms already wait 200 ms, a tenth of a 2 s round, and a round cuts off the requests in flight.
 * The store's engine interleaves concurrent scans, so they end together, in batches too coarse for
 * a round of a few seconds.
 */
export const SLOW_MS = 20;

const docsOf = ({ status, body }) => {
  const answer = JSON.parse(body);
  const docs = Array.isArray(answer) ? answer : answer.data;
  // A refusal (a budget, a timeout) is a row that cannot be measured: say which, not a TypeError.
  if (!Array.isArray(docs)) throw new Error(`answered ${status} instead of a list: ${body.slice(0, 300)}`);
  return docs;
};

/** The load measures: each contender's request, and a digest of its answer that must agree. */
const MEASURES = [
  {
    key: 'getById',
    spec: (_contender, seed) => ({
      requests: [
        {
          method: 'GET',
          setupRequest: (request, context) => {
            context.i = ((context.i ?? -1) + 1) % seed.ids.length;
            return { ...request, path: `/items/${seed.ids[context.i]}` };
          },
        },
      ],
    }),
    checkPath: (seed) => seed.probe,
    digest: ({ status, body }) => [status, JSON.parse(body).id, JSON.parse(body).name],
  },
  {
    key: 'equality',
    spec: (contender) => ({ path: SCALE_CONTENDERS[contender].equality }),
    digest: (answer) => docsOf(answer).map((doc) => doc.id),
  },
  {
    key: 'range',
    spec: (contender) => ({ path: SCALE_CONTENDERS[contender].range }),
    digest: (answer) => docsOf(answer).map((doc) => doc.n),
  },
];

/** The contenders in `names`' order on even rounds, reversed on odd ones. */
const alternate = (names, round) => (round % 2 === 0 ? names : [...names].reverse());

/** Milliseconds `request()` takes. */
async function timed(request) {
  const began = performance.now();
  const answer = await request();
  return { answer, ms: performance.now() - began };
}

/**
 * Whether a request is slow (over SLOW_MS): one that took 10x that is; otherwise up to 2 more
 * decide (the first runs cold, and a busy machine stalls a single request now and then).
 */
async function isSlow(ask, firstMs) {
  if (firstMs > 10 * SLOW_MS) return true;
  for (let ms = firstMs, tries = 0; ms > SLOW_MS; tries++) {
    if (tries === 2) return true;
    ms = (await timed(ask)).ms;
  }
  return false;
}

/**
 * Each contender's request for `measure`, checked once: its digest, and whether it is slow
 * (`isSlow`). One slow contender makes the measure slow for all of them.
 */
async function checkMeasure(measure, servers, seed) {
  const plans = {};
  for (const [name, server] of Object.entries(servers)) {
    const spec = measure.spec(name, seed);
    const ask = () => requestOnce(server.port, spec, measure.checkPath?.(seed));
    const first = await timed(ask);
    const slow = await isSlow(ask, first.ms);
    plans[name] = { spec, slow, digest: JSON.stringify(measure.digest(first.answer)) };
  }
  const same = new Set(Object.values(plans).map((plan) => plan.digest)).size <= 1;
  return { plans, slow: Object.values(plans).some((plan) => plan.slow), check: same ? 'ok' : 'mismatch' };
}

/**
 * One request at a time, each answered before the next, until `seconds` have passed and at least
 * 2 were answered: `load`'s figures without its cut-offs (a round ends with its requests in flight
 * uncounted, and autocannon gives up on a request after 10 s).
 */
async function oneByOne(port, spec, checkPath, seconds) {
  const began = performance.now();
  let requests = 0;
  let failures = 0;
  while (requests < 2 || performance.now() - began < seconds * 1000) {
    const { status } = await requestOnce(port, spec, checkPath);
    requests++;
    if (status >= 300) failures++;
  }
  return { requests, seconds: (performance.now() - began) / 1000, failures };
}

/**
 * Requests/s of every contender for `measure`: medians of alternating rounds. When no contender
 * is slow, `load` (autocannon) with 10 connections after a warm-up each; otherwise one request at
 * a time for every contender (see SLOW_MS), the check being the warm-up.
 */
async function loadMeasure(measure, servers, seed, timing, log) {
  const { plans, slow, check } = await checkMeasure(measure, servers, seed);
  if (check !== 'ok') {
    const digests = Object.entries(plans).map(([name, plan]) => `${name} ${plan.digest.slice(0, 200)}`);
    log(`  ! ${measure.key}: the contenders' answers differ: ${digests.join('; ')}`);
  }
  const names = Object.keys(servers);
  const run = (name, seconds) =>
    slow
      ? oneByOne(servers[name].port, plans[name].spec, measure.checkPath?.(seed), seconds)
      : load(servers[name].port, plans[name].spec, seconds, CONNECTIONS);
  if (!slow) for (const name of names) await run(name, timing.warmup);
  const rounds = Object.fromEntries(names.map((name) => [name, []]));
  let failures = 0;
  for (let round = 0; round < timing.rounds; round++) {
    for (const name of alternate(names, round)) {
      const result = await run(name, timing.seconds);
      rounds[name].push(result.requests / result.seconds);
      failures += result.failures;
    }
  }
  const rps = Object.fromEntries(names.map((name) => [name, median(rounds[name])]));
  return { rps, rounds, check, failures, connections: slow ? 1 : CONNECTIONS };
}

/**
 * What a process holds that is not its allocator's spare pages: V8's live heap, and the memory of
 * buffers outside it (`external` counts `arrayBuffers` already).
 */
const heapOf = (memory) => memory.heapUsed + memory.external;

/** Start-up, RSS and the load measures over `seed`; `empty` holds each contender's empty RSS. */
async function measureSize(seed, names, dir, timing, empty, log) {
  const startups = Object.fromEntries(names.map((name) => [name, []]));
  const rss = Object.fromEntries(names.map((name) => [name, []]));
  const heap = Object.fromEntries(names.map((name) => [name, []]));
  const servers = {};
  try {
    for (let round = 0; round < timing.starts; round++) {
      for (const name of alternate(names, round)) {
        const server = await startContender(name, seed, dir);
        startups[name].push(server.startupMs);
        const memory = await server.memory();
        rss[name].push(memory.rss);
        heap[name].push(heapOf(memory));
        if (round === timing.starts - 1) servers[name] = server;
        else await server.stop();
      }
    }
    const startupMs = Object.fromEntries(names.map((name) => [name, median(startups[name])]));
    const rssBytes = Object.fromEntries(names.map((name) => [name, median(rss[name])]));
    const rssPerDocument = Object.fromEntries(
      names.map((name) => [name, (rssBytes[name] - empty[name].rssBytes) / seed.count]),
    );
    const heapPerDocument = Object.fromEntries(
      names.map((name) => [name, (median(heap[name]) - empty[name].heapBytes) / seed.count]),
    );
    const line = (values, unit) => names.map((name) => `${name} ${Math.round(values[name])}${unit}`);
    log(`  start-up: ${line(startupMs, ' ms').join(', ')}`);
    log(`  RSS per document: ${line(rssPerDocument, ' B').join(', ')}`);
    const loads = {};
    for (const measure of MEASURES) {
      loads[measure.key] = await loadMeasure(measure, servers, seed, timing, log);
      log(`  ${measure.key}: ${line(loads[measure.key].rps, ' req/s').join(', ')}`);
    }
    return {
      documents: seed.count,
      timing,
      startupMs,
      rssBytes,
      rssPerDocument,
      heapPerDocument,
      startups,
      loads,
    };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

/** Each contender over an empty `items`: its start-up and its RSS, what a document's share leaves out. */
async function measureEmpty(seed, names, dir) {
  const empty = {};
  for (const name of names) {
    const server = await startContender(name, seed, dir);
    const memory = await server.memory();
    await server.stop();
    empty[name] = { startupMs: server.startupMs, rssBytes: memory.rss, heapBytes: heapOf(memory) };
  }
  return empty;
}

/**
 * The whole measurement: the empty servers, then each size of `docs` (smallest first), its seed
 * file written in a temporary folder and removed after it; `timing` is `{ warmup, seconds, rounds,
 * starts }`, `reduced` `{ from, rounds, starts }` (fewer rounds from that many documents on).
 */
export async function runScale({ docs, names, timing, reduced, log }) {
  const dir = mkdtempSync(join(tmpdir(), 'store-scale-'));
  try {
    prepareDir(dir);
    log('no documents ...');
    const empty = await measureEmpty(writeSeed(dir, 0), names, dir);
    const sizes = [];
    for (const count of docs) {
      log(`${count.toLocaleString('en-US')} documents ...`);
      const seed = writeSeed(dir, count);
      const fewer = count >= reduced.from ? { rounds: reduced.rounds, starts: reduced.starts } : {};
      sizes.push(await measureSize(seed, names, dir, { ...timing, ...fewer }, empty, log));
      rmSync(seed.file);
    }
    return { empty, sizes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
