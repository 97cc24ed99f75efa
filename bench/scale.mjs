// node bench/scale.mjs [--docs=100000,1000000] [--seconds=2] [--rounds=3] [--starts=3]
//                      [--contenders=storeCli,jsonServer,jsonServerV1] [--quick] [--json]
// (also part of `pnpm bench`; --no-scale skips it there)
//
// The scale table, against the BUILT packages (`pnpm build` first): for each number of documents,
// `store serve --seed db.json` in memory, json-server 0.17 and json-server v1 over the same file,
// each in its own process: start-up (spawn to first answered request), RSS per document,
// get-by-id, equality and unindexed range + sort requests/s (bench/lib/scale.mjs), against the
// targets (bench/lib/scale-report.mjs). From 1,000,000 documents on, at most 2 load rounds, so a
// run of both default sizes stays within about 6 minutes on 2 cores. --quick: 10,000
// and 100,000 documents, 1 start-up, 1 round of 1 s. With --json the progress and the table go to
// stderr and the last line of stdout is the figures as JSON (for bench/run.mjs).
import { existsSync } from 'node:fs';
import { benchArgs } from './lib/args.mjs';
import { CONNECTIONS, runScale, SLOW_MS } from './lib/scale.mjs';
import { scaleMarkdown, scaleTargets } from './lib/scale-report.mjs';
import { SCALE_CONTENDERS, STORE_BIN } from './lib/scale-start.mjs';

const { args, quick, option, number } = benchArgs();
const json = args.includes('--json');
const say = json ? (line) => console.error(line) : (line) => console.log(line);

/** A comma-separated option, each value checked by `valid`. */
function list(name, fallback, valid) {
  const values = (option(name) ?? fallback).split(',').filter(Boolean);
  const wrong = values.filter((value) => !valid(value));
  if (values.length === 0 || wrong.length > 0) {
    console.error(`--${name}: not understood: ${wrong.join(', ') || '(empty)'}`);
    process.exit(1);
  }
  return values;
}

const docs = list('docs', quick ? '10000,100000' : '100000,1000000', (value) => Number(value) > 0)
  .map(Number)
  .sort((a, b) => a - b);
const names = list('contenders', Object.keys(SCALE_CONTENDERS).join(','), (name) => name in SCALE_CONTENDERS);
const timing = {
  warmup: number('warmup', 1, 0.5),
  seconds: number('seconds', 2, 1),
  rounds: number('rounds', 3, 1),
  starts: number('starts', 3, 1),
};
/**
 * From a million documents on, fewer load rounds: each costs seconds there. Start-ups stay 3 (by
 * default): a median of 2 is their mean, and one slow start (the machine busy) moved it past the
 * target's line.
 */
const reduced = { from: 1_000_000, rounds: Math.min(timing.rounds, 2), starts: timing.starts };
const reduces =
  docs.some((count) => count >= reduced.from) &&
  (reduced.rounds < timing.rounds || reduced.starts < timing.starts);

if (names.includes('storeCli') && !existsSync(STORE_BIN)) {
  console.error('packages/cli is not built: run `pnpm build` first (`pnpm bench` does).');
  process.exit(1);
}

const { empty, sizes } = await runScale({ docs, names, timing, reduced, log: say });
const settings = {
  quick,
  docs,
  ...timing,
  connections: CONNECTIONS,
  slowMs: SLOW_MS,
  ...(reduces
    ? { reducedFrom: reduced.from, reducedRounds: reduced.rounds, reducedStarts: reduced.starts }
    : {}),
};
const markdown = scaleMarkdown({ settings, empty, sizes });
say(`\n${markdown}`);
if (json) {
  console.log(JSON.stringify({ settings, empty, sizes, targets: scaleTargets(sizes), markdown }));
}
