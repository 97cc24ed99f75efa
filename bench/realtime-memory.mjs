// node bench/realtime-memory.mjs [--compare=<old root>] [--root=<root>] [--repeat=N] [--quick]
//   [--only=idle,churn,document] [--streams=1000] [--reconnects=1000] [--writes=500]
//   [--patches=1000] [--seconds=60] [--kb=900] [--json]
//
// What event streams cost the store's process in memory (issue 27), each figure on a fresh
// store server in its own process (bench/lib/memory.mjs), read by the server itself after full
// garbage collections (it runs with --expose-gc): RSS, and heap + external.
//
// (a) idle: `--streams` idle streams (`/items?room=room-<i>`, held by another process): the
//     server's growth per stream;
// (b) churn: `--writes` items created while a stream watches, then `--reconnects` reconnects
//     with the `Last-Event-ID` of the first, each gone during its replay: growth per reconnect
//     (~0 when nothing is kept for a reader that left);
// (c) document: a `--kb` kB document patched `--patches` times (at most `--seconds`) with one
//     stream watching it, and again with none: the server's growth in each.
//
// Loads the BUILT packages (`packages/*/dist`) of the repository at `--root` (this one by
// default), so it measures another tree too: `--compare=/tmp/base` measures that tree (old)
// and `--root` (new) in the same run, alternating, and prints both columns. `--repeat=3`
// repeats every figure (the table shows the median and the range). `pnpm bench` runs it with
// `--json` (its figures go into results.json and results.md).
import { benchArgs } from './lib/args.mjs';
import { bigDocument, idleStreams, reconnectChurn } from './lib/memory.mjs';
import { median } from './lib/report.mjs';
import { builtTrees } from './lib/trees.mjs';

const { args, option, number } = benchArgs();
const SETTINGS = {
  streams: number('streams', 1000, 200),
  reconnects: number('reconnects', 1000, 200),
  writes: number('writes', 500, 200),
  patches: number('patches', 1000, 100),
  seconds: number('seconds', 60, 15),
  kb: number('kb', 900, 900),
};
const REPEAT = number('repeat', 1, 1);
const ONLY = option('only')?.split(',') ?? ['idle', 'churn', 'document'];

const unknown = ONLY.filter((name) => !['idle', 'churn', 'document'].includes(name));
if (unknown.length > 0) {
  console.error(`--only: unknown measurement ${unknown.join(', ')} (idle, churn, document)`);
  process.exit(1);
}

const TREES = builtTrees(option('compare'), option('root'));

const KB = 1024;
const MB = 1024 * 1024;

/** The measurements, each giving the table's figures from one run on one tree. */
const MEASUREMENTS = {
  idle: {
    run: (root) => idleStreams(root, SETTINGS),
    figures: (run) => ({
      'RSS per idle stream (KiB)': run.perStream.rss / KB,
      'heap + external per idle stream (KiB)': run.perStream.heap / KB,
    }),
  },
  churn: {
    run: (root) => reconnectChurn(root, SETTINGS),
    figures: (run) => ({
      'RSS growth per reconnect aborted during its replay (bytes)': run.perReconnect.rss,
      'heap + external growth per reconnect (bytes)': run.perReconnect.heap,
    }),
  },
  document: {
    run: async (root) => ({
      watched: await bigDocument(root, { ...SETTINGS, watched: true }),
      unwatched: await bigDocument(root, { ...SETTINGS, watched: false }),
    }),
    figures: ({ watched, unwatched }) => ({
      [`RSS growth, ${SETTINGS.kb} kB document patched, one stream watching (MiB)`]: watched.growth.rss / MB,
      'RSS growth, the same with no stream (MiB)': unwatched.growth.rss / MB,
      'RSS growth, watched - unwatched (MiB)': (watched.growth.rss - unwatched.growth.rss) / MB,
      'heap + external growth, watched - unwatched (MiB)': (watched.growth.heap - unwatched.growth.heap) / MB,
    }),
  },
};

/** What a run did besides its figures, to tell a run that did not measure what it says. */
function notes(name, run) {
  if (name === 'churn') {
    const types = Object.entries(run.types).map(([type, count]) => `${count} ${type}`);
    return `churn: ${run.reconnects} reconnects after ${run.writes} writes; first event: ${types.join(', ')}`;
  }
  if (name === 'document') {
    const { watched, unwatched } = run;
    const events = Object.entries(watched.events).map(([type, count]) => `${count} ${type}`);
    return `document: ${watched.patches} patches watched (events received: ${events.join(', ') || 'none'}), ${unwatched.patches} unwatched`;
  }
  return `idle: ${run.streams} streams`;
}

async function measureAll() {
  const trees = TREES.map((tree) => ({ ...tree, figures: {}, notes: [] }));
  for (let round = 0; round < REPEAT; round++) {
    for (const name of ONLY) {
      const measurement = MEASUREMENTS[name];
      // Trees alternate, so a machine slowing down during a run weighs on both.
      for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) {
        const run = await measurement.run(tree.root);
        for (const [figure, value] of Object.entries(measurement.figures(run))) {
          tree.figures[figure] = [...(tree.figures[figure] ?? []), value];
        }
        tree.notes.push(`${tree.label}: ${notes(name, run)}`);
        if (!args.includes('--json')) console.error(`  ${tree.label}: ${notes(name, run)}`);
      }
    }
  }
  return trees;
}

const format = (value) => (Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2));
/** One value, or the median and the range of several. */
function cell(values) {
  if (values === undefined) return '-';
  if (values.length === 1) return format(values[0]);
  return `${format(median(values))} (${format(Math.min(...values))} to ${format(Math.max(...values))})`;
}

function table(trees) {
  const figures = Object.keys(trees.at(-1).figures);
  const header = `| figure | ${trees.map(({ label, root }) => `${label} (\`${root}\`)`).join(' | ')} |`;
  const rows = figures.map(
    (figure) => `| ${figure} | ${trees.map((tree) => cell(tree.figures[figure])).join(' | ')} |`,
  );
  return [header, `| --- | ${trees.map(() => '---:').join(' | ')} |`, ...rows].join('\n');
}

const trees = await measureAll();
if (args.includes('--json')) {
  const summary = trees.map(({ label, root, figures, notes: said }) => ({
    label,
    root,
    figures: Object.fromEntries(Object.entries(figures).map(([figure, values]) => [figure, median(values)])),
    runs: figures,
    notes: said,
  }));
  console.log(JSON.stringify({ settings: SETTINGS, repeat: REPEAT, trees: summary }));
} else {
  const settings = Object.entries(SETTINGS).map(([name, value]) => `${name} ${value}`);
  console.log(`\nStore server memory after GC, ${REPEAT} run(s) per figure (${settings.join(', ')}):\n`);
  console.log(table(trees));
}
