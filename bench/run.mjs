// pnpm bench [--quick] [--only=case,case] [--profile] [--no-compile] [--no-memory] [--no-hold] [--no-durable] [--no-scale] [--report]
//
// Runs every case against every contender that has it (the store, the hand-written baseline on
// the same engine, the mingo floor, json-server 0.17 and v1, Feathers, the limit, the `store`
// command's own server), each in its own child process, alternating contenders round by round after a warm-up, and
// writes bench/results.json and bench/results.md (results.quick.* for --quick or --only runs). Runs against the BUILT packages: `pnpm bench`
// at the root builds them first; `node bench/run.mjs` alone expects `pnpm build` to have run.
// Then `packages/query`'s compile benchmark, bench/realtime-memory.mjs (what event streams
// cost the server in memory; ~1 minute, ~20 s with --quick; with --only, only when it names
// `realtime-memory`) and bench/hold.mjs (whether one heavy request holds the other clients;
// a few minutes, ~1 minute with --quick; with --only, only when it names `hold`; `--no-hold` skips it)
// and bench/durable.mjs (the durable write table against the fsync floor, and `store import`'s
// documents/s; a few minutes, ~1 minute with --quick; with --only, only when it names `durable`;
// `--no-durable` skips it) and bench/scale.mjs (the scale table: start-up, RSS per document and
// requests/s of `store serve` and json-server at 100,000 and 1,000,000 documents; about 5 minutes,
// 10,000 and 100,000 documents with --quick; with --only, only when it names `scale`; `--no-scale`
// skips it).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildCases } from './lib/cases.mjs';
import { load, requestOnce, spawnContender } from './lib/measure.mjs';
import { MEASURED as CONTENDERS, markdown, summarize } from './lib/report.mjs';
import { STORE_INDEXES } from './lib/store-config.mjs';
import { holdIdleStreams, measureLatency } from './lib/subscribers.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const profileDir = args.includes('--profile') ? here('./profiles') : undefined;
/** On MongoDB, only the contenders on its engine: the others would measure the same as embedded. */
const ON_MONGODB = ['store', 'baseline'];
const TIMING = quick ? { warmup: 1, seconds: 1, rounds: 2 } : { warmup: 3, seconds: 1.5, rounds: 10 };
const CONNECTIONS = 10;

for (const pkg of ['query', 'core', 'adapter-express', 'embedded', 'cli']) {
  if (!existsSync(here(`../packages/${pkg}/dist/index.js`))) {
    console.error(`packages/${pkg} is not built: run \`pnpm build\` first (\`pnpm bench\` does).`);
    process.exit(1);
  }
}

const sameDigest = (digests) => new Set(Object.values(digests).map((d) => JSON.stringify(d))).size <= 1;

/** Asks each contender once and compares the digests of their answers. */
async function check(benchCase, servers, contenders) {
  const digests = {};
  for (const name of contenders) {
    const answer = await requestOnce(servers[name].port, benchCase[name], benchCase.checkPath);
    digests[name] = benchCase.digest(name, answer);
  }
  if (sameDigest(digests)) return 'ok';
  console.error(
    `  ! ${benchCase.name}: the contenders' answers differ`,
    JSON.stringify(digests).slice(0, 600),
  );
  return 'mismatch';
}

/**
 * Warm-up, then rounds in alternating order. Requests/s and mean p99 over all rounds, and the
 * store's ratio to each contender in every round (the report takes their median).
 */
async function measure(benchCase, servers, contenders) {
  for (const name of contenders) await load(servers[name].port, benchCase[name], TIMING.warmup, CONNECTIONS);
  const totals = Object.fromEntries(
    contenders.map((name) => [name, { requests: 0, seconds: 0, p99: [], rounds: [] }]),
  );
  let failures = 0;
  for (let round = 0; round < TIMING.rounds; round++) {
    const order = round % 2 === 0 ? contenders : [...contenders].reverse();
    for (const name of order) {
      const run = await load(servers[name].port, benchCase[name], TIMING.seconds, CONNECTIONS);
      totals[name].requests += run.requests;
      totals[name].seconds += run.seconds;
      totals[name].p99.push(run.p99ms);
      totals[name].rounds.push(run.requests / run.seconds);
      failures += run.failures;
    }
  }
  const rps = {};
  const p99ms = {};
  const roundRatios = {};
  for (const name of new Set([...CONTENDERS, ...contenders])) {
    const total = totals[name];
    rps[name] = total ? total.requests / total.seconds : null;
    p99ms[name] = total ? total.p99.reduce((a, b) => a + b, 0) / total.p99.length : null;
    if (name !== 'store' && total) {
      roundRatios[name] = total.rounds.map((contender, i) => totals.store.rounds[i] / contender);
    }
  }
  return { rps, p99ms, roundRatios, failures };
}

/**
 * `benchCase.subscribers` idle streams on the store, and a second store (no streams) for the
 * reference. The store first serves the case's own requests, as it has in a full run, where other
 * cases came before: in a process whose first requests are a thousand streams, V8 keeps a few
 * dozen of the request path's allocation sites in its old generation for good, a cost of its own
 * (`docs/performance.md`, "a burst of streams on a cold process").
 */
async function attachStreams(benchCase, dataset, engine, serversOf) {
  await load(serversOf.store.port, benchCase.store, TIMING.warmup, CONNECTIONS);
  const idle = await holdIdleStreams(serversOf.store.port, benchCase.subscribers);
  const reference = await spawnContender({ contender: 'store', dataset, engine, profileDir });
  return { reference, stopReference: () => reference.stop(), stop: () => idle.stop() };
}

/** Whether `benchCase` runs `contender` (a case leaves a contender out, or sets it to `null`). */
const runs = (benchCase, contender) => Boolean(benchCase[contender]);

async function runGroup(dataset, cases, engine) {
  // The store always: a self-comparison case runs on it alone.
  const contenders = (engine === 'embedded' ? CONTENDERS : ON_MONGODB).filter(
    (name) => name === 'store' || cases.some((benchCase) => runs(benchCase, name)),
  );
  const started = await Promise.all(
    contenders.map((contender) => spawnContender({ contender, dataset, engine, profileDir })),
  );
  const serversOf = Object.fromEntries(contenders.map((name, i) => [name, started[i]]));
  const results = [];
  try {
    for (const benchCase of cases) {
      // A self-comparison case runs its `reference` request on the store's own server.
      const present = benchCase.reference
        ? ['store', 'reference']
        : contenders.filter((name) => runs(benchCase, name));
      const label = engine === 'embedded' ? benchCase.name : `${benchCase.name} (${engine})`;
      process.stdout.write(`${label} ... `);
      // With event streams attached to the store, its reference runs on a second store without any.
      const streams = benchCase.subscribers
        ? await attachStreams(benchCase, dataset, engine, serversOf)
        : undefined;
      const servers = benchCase.reference
        ? { store: serversOf.store, reference: streams?.reference ?? serversOf.store }
        : serversOf;
      const status = await check(benchCase, servers, present);
      const { rps, p99ms, roundRatios, failures } = await measure(benchCase, servers, present).finally(() =>
        streams?.stopReference(),
      );
      const latency = streams ? await measureLatency(serversOf.store.port) : undefined;
      await streams?.stop();
      const shown = present.map((name) => `${name} ${Math.round(rps[name])}`).join(', ');
      console.log(`${shown} req/s${status === 'ok' ? '' : ' (answers differ)'}`);
      results.push({
        name: label,
        engine,
        dataset,
        measures: benchCase.measures,
        rps,
        p99ms,
        roundRatios,
        check: status,
        failures,
        ...(benchCase.reference ? { costAtMost: benchCase.costAtMost } : {}),
        ...(benchCase.throughputAtLeast ? { throughputAtLeast: benchCase.throughputAtLeast } : {}),
        ...(benchCase.subscribers ? { subscribers: benchCase.subscribers } : {}),
        ...(latency ? { latency } : {}),
      });
    }
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
  return results;
}

function compileBench() {
  const env = { ...process.env, ...(quick ? { N: '500', ROUNDS: '4' } : {}) };
  const run = spawnSync(process.execPath, [here('../packages/query/bench/compile.bench.mjs')], {
    env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`compile benchmark failed:\n${run.stderr}`);
  const rate = (label) =>
    Number(run.stdout.match(new RegExp(`${label}\\s+([\\d,]+) compiles/s`))?.[1].replaceAll(',', ''));
  const ratio = Number(run.stdout.match(/ratio \(compileQuery \/ aqp\): ([\d.]+)/)?.[1]);
  return { ours: rate('@store/query compileQuery'), theirs: rate('api-query-params \\(aqp\\)'), ratio };
}

/** bench/realtime-memory.mjs's figures (its own processes), or `undefined` when not asked for. */
function realtimeMemory() {
  const asked = only ? only.includes('realtime-memory') : !args.includes('--no-memory');
  if (!asked) return undefined;
  process.stdout.write('realtime-memory ... ');
  const run = spawnSync(
    process.execPath,
    [here('./realtime-memory.mjs'), '--json', ...(quick ? ['--quick'] : [])],
    {
      encoding: 'utf8',
    },
  );
  // A failure here must not lose the cases measured before it: the report says it failed.
  if (run.status !== 0) {
    console.log(`failed:\n${run.stderr}`);
    return { error: run.stderr.trim().split('\n')[0] || `exit ${run.status}` };
  }
  const { settings, trees } = JSON.parse(run.stdout.trim().split('\n').at(-1));
  console.log('done');
  return { settings, figures: trees[0].figures };
}

/**
 * The figures of the bench script `name` (bench/<name>.mjs, in its own processes: its progress on
 * stderr shows as it goes, its figures are the last line of its stdout), `undefined` when not
 * asked for (`--only` names it, or no `--no-<name>`), or `{ error }` when it failed: a failure
 * here must not lose the cases measured before it.
 */
function childBench(name) {
  const asked = only ? only.includes(name) : !args.includes(`--no-${name}`);
  if (!asked) return undefined;
  console.log(`${name} ...`);
  const run = spawnSync(process.execPath, [here(`./${name}.mjs`), '--json', ...(quick ? ['--quick'] : [])], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    // Bounded whatever the store does (hold's heavy requests each give up after 2 minutes).
    timeout: 30 * 60_000,
  });
  if (run.status !== 0) {
    const why =
      run.error?.code === 'ETIMEDOUT' ? 'no end after 30 minutes' : `exit ${run.status ?? run.signal}`;
    console.log(`${name} failed (${why}; its output is above)`);
    return { error: why };
  }
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

/** bench/hold.mjs's settings and rows. */
function holdBench() {
  const figures = childBench('hold');
  if (figures === undefined || figures.error !== undefined) return figures;
  return { settings: figures.settings, rows: figures.trees.at(-1).rows };
}

/** bench/durable.mjs's figures. */
const durableBench = () => childBench('durable');

/** bench/scale.mjs's figures. */
const scaleBench = () => childBench('scale');

/** results.md's section of bench/scale.mjs, after the rest. */
const withScale = (table, scale) =>
  scale === undefined
    ? table
    : `${table}\n## Scale (bench/scale.mjs)\n\n${scale.error ? `failed: ${scale.error}\n` : scale.markdown}`;

/** results.md's section of bench/durable.mjs, after the rest. */
const withDurable = (table, durable) =>
  durable === undefined
    ? table
    : `${table}\n## Durable writes and import (bench/durable.mjs)\n\n${durable.error ? `failed: ${durable.error}\n` : durable.markdown}`;

const git = (...gitArgs) => {
  try {
    return execFileSync('git', gitArgs, { cwd: here('.'), encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};

/** `--report`: rewrites results.md from results.json and findings.md, measuring nothing. */
function rewriteReport() {
  const { meta, cases, compile, realtime, hold, durable, scale } = JSON.parse(
    readFileSync(here('./results.json'), 'utf8'),
  );
  const findingsPath = here('./findings.md');
  const findings = existsSync(findingsPath) ? readFileSync(findingsPath, 'utf8') : '';
  const table = markdown(summarize(cases, compile, realtime, hold), meta, findings);
  writeFileSync(here('./results.md'), withScale(withDurable(table, durable), scale));
}

async function main() {
  if (args.includes('--report')) return rewriteReport();
  const cases = buildCases().filter((c) => !only || only.includes(c.name));
  const engines = ['embedded'];
  const skipped = [];
  if (process.env.MONGODB_URI) engines.push('mongodb');
  else skipped.push('the MongoDB cases (MONGODB_URI is not set; json-server has no MongoDB mode either)');
  for (const reason of skipped) console.log(`skipped: ${reason}`);
  const unindexed = !STORE_INDEXES && cases.some((c) => c.dataset.startsWith('indexed-'));
  if (unindexed) {
    console.log(
      'unindexed: the store has no `indexes` resource option yet, so its indexed cases (range-sort-indexed, list-filter-100k) run unindexed on the store (the baseline still indexes `n`)',
    );
  }
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const results = [];
  for (const engine of engines) {
    const datasets = [...new Set(cases.map((c) => c.dataset))];
    for (const dataset of datasets) {
      results.push(
        ...(await runGroup(
          dataset,
          // Cases that write run last, so every read case measures the dataset as generated.
          cases
            .filter((c) => c.dataset === dataset)
            .sort((a, b) => Number(Boolean(a.writes)) - Number(Boolean(b.writes))),
          engine,
        )),
      );
    }
  }
  const compile = args.includes('--no-compile') ? undefined : compileBench();
  const realtime = realtimeMemory();
  const hold = holdBench();
  const durable = durableBench();
  const scale = scaleBench();
  const order = cases.map((c) => c.name);
  results.sort(
    (a, b) =>
      engines.indexOf(a.engine) - engines.indexOf(b.engine) ||
      order.indexOf(a.name.split(' ')[0]) - order.indexOf(b.name.split(' ')[0]),
  );
  const summary = summarize(results, compile, realtime, hold);
  const meta = {
    quick,
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    commit: git('rev-parse', '--short', 'HEAD'),
    node: process.version,
    cpus: cpus().length,
    connections: CONNECTIONS,
    skipped,
    unindexed,
    ...TIMING,
  };
  const findingsPath = here('./findings.md');
  const findings = existsSync(findingsPath) ? readFileSync(findingsPath, 'utf8') : '';
  const table = withScale(withDurable(markdown(summary, meta, findings), durable), scale);
  // Only a full run replaces the committed table; quick and partial runs write results.quick.*.
  const stem = quick || only ? './results.quick' : './results';
  writeFileSync(here(`${stem}.json`), `${JSON.stringify({ meta, ...summary, durable, scale }, null, 2)}\n`);
  writeFileSync(here(`${stem}.md`), table);
  console.log(`\n${table}`);
  if (profileDir) console.log(`CPU profiles of every contender process: ${profileDir}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
