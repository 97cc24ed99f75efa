// node packages/embedded/bench/filter.bench.mjs   (or: pnpm --filter @store/embedded bench:filter)
//
// What one document costs a filter: compiled into predicates (src/fast-filter.ts) against
// mingo's `Query` with the engine's operators (`compileWithMingo`, the path every filter took
// before), each filter testing the same 10,000 stored documents. Prints the median of 41
// interleaved rounds in nanoseconds per document, and mingo / compiled. Run by hand, not in CI.
//
// The engine's source is bundled first (tsup, everything inlined, into a temporary directory):
// Vitest's module transform turns every cross-module call into a property read and would
// measure that instead, and the package's `dist/` exports neither function.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsup';

const DOCS = 10_000;
const WARM_ROUNDS = 30;
const ROUNDS = 41;

const FILTERS = [
  ['range and list', { n: { $gt: 500 }, tags: { $in: ['red', 'blue'] } }],
  ['range', { n: { $gte: 5001 } }],
  ['dotted range', { 'author.age': { $lt: 30 } }],
  ['equality list (query string)', { status: { $in: ['10', 10] } }],
  ['keyset page', { $or: [{ n: { $gt: 9000 } }, { n: 9000, _id: { $gt: 3 } }] }],
  ['$exists and $size', { 'author.name': { $exists: true }, tags: { $size: 2 } }],
  ['regex', { name: { $regex: '^item 1', $options: 'i' } }],
];

async function bundledEngine() {
  const src = fileURLToPath(new URL('../src/', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'filter-bench-'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export { compileFilter, compileWithMingo } from ${JSON.stringify(join(src, 'compile-filter.ts'))};`,
      `export { CollectionIndexes } from ${JSON.stringify(join(src, 'indexes.ts'))};`,
      `export { toStored } from ${JSON.stringify(join(src, 'values.ts'))};`,
    ].join('\n'),
  );
  await build({
    entry: { engine: entry },
    outDir: dir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    noExternal: [/./],
    outExtension: () => ({ js: '.mjs' }),
    config: false,
    silent: true,
  });
  const engine = await import(pathToFileURL(join(dir, 'engine.mjs')).href);
  rmSync(dir, { recursive: true, force: true });
  return engine;
}

const { compileFilter, compileWithMingo, CollectionIndexes, toStored } = await bundledEngine();

const COLORS = ['red', 'green', 'blue', 'black', 'white'];
const docs = Array.from({ length: DOCS }, (_, i) =>
  toStored({
    _id: i + 1,
    n: i + 1,
    name: `item ${i}`,
    status: i % 20 === 0 ? 10 : String(i % 7),
    tags: [COLORS[i % 5], COLORS[(i * 7) % 5]],
    at: new Date(Date.UTC(2024, 0, 1) + i * 60_000),
    author: { name: `author ${i % 100}`, age: i % 90 },
  }),
);

let matched = 0;
function scan(test) {
  const started = process.hrtime.bigint();
  for (const doc of docs) if (test(doc)) matched += 1;
  return Number(process.hrtime.bigint() - started) / DOCS;
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

const indexes = new CollectionIndexes();
const rows = FILTERS.map(([name, filter]) => ({
  name,
  filter,
  compiled: compileFilter(filter, indexes).test,
  mingo: compileWithMingo(filter, indexes).test,
  times: { compiled: [], mingo: [] },
}));
// Warm every filter first, so each is measured with the call site as the engine has it: shared by many.
for (let round = 0; round < WARM_ROUNDS; round++)
  for (const row of rows) scan(row.compiled) + scan(row.mingo);
for (let round = 0; round < ROUNDS; round++) {
  for (const row of rows) {
    row.times.compiled.push(scan(row.compiled));
    row.times.mingo.push(scan(row.mingo));
  }
}

console.log(
  `ns per document, median of ${ROUNDS} rounds over ${DOCS} documents (${matched > 0 ? 'ok' : '?'})\n`,
);
console.log('| filter | compiled | mingo | mingo / compiled |');
console.log('| --- | ---: | ---: | ---: |');
for (const { name, filter, times } of rows) {
  const [compiled, mingo] = [median(times.compiled), median(times.mingo)];
  console.log(
    `| ${name}: \`${JSON.stringify(filter)}\` | ${compiled.toFixed(1)} | ${mingo.toFixed(1)} | ${(mingo / compiled).toFixed(2)} |`,
  );
}
