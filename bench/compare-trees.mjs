// node bench/compare-trees.mjs <before-tree> [case ...]   (cases: get-by-id, create, patch,
// list-filter, count, range-sort, range-sort-indexed, equality, contains, populate; default: all)
//
// "No case slower than before": the store of another checkout (`<before-tree>`, e.g. a
// `git worktree add /tmp/before <rev>` with `pnpm install && pnpm build` run in it) against the
// store of this one, in ONE process: both handlers over the same data, called in short
// alternating blocks, so a slow spell of a shared machine weighs on both alike (separate runs of
// bench/inprocess.mjs differ by more than the change being measured). Prints each side's
// microseconds per request and now/before (above 1: slower now). Needs both trees built.
import { resolve } from 'node:path';
import { QUERIES } from './lib/cases.mjs';
import { DATASETS, INDEXED, sampleIds } from './lib/data.mjs';
import { microsecondsPerCall, storeRequest as request } from './lib/in-process.mjs';
import { median } from './lib/report.mjs';
import { RESOURCES } from './lib/store-config.mjs';

const [beforeTree, ...names] = process.argv.slice(2);
if (beforeTree === undefined) throw new Error('usage: node bench/compare-trees.mjs <before-tree> [case ...]');
const TREES = { before: resolve(beforeTree), now: resolve(import.meta.dirname, '..') };
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const BLOCKS = 50;
const BODY = JSON.stringify({ name: 'new', n: 42, tags: ['red', 'green'], price: 9.99, active: true });
const PATCH_BODY = JSON.stringify({ price: 1.5 });

/** Each case: its data set, calls per round, and the request of the `i`-th call. */
const CASES = {
  'get-by-id': {
    dataset: 'items-1k',
    calls: 50_000,
    call: (ids, i) => request('GET', `/items/${ids[i % ids.length]}`),
  },
  create: { dataset: 'items-1k', calls: 20_000, call: () => request('POST', '/items', '', BODY) },
  patch: {
    dataset: 'items-1k',
    calls: 20_000,
    call: (ids, i) => request('PATCH', `/items/${ids[i % ids.length]}`, '', PATCH_BODY),
  },
  'list-filter': { dataset: 'items-10k', calls: 3_000, call: () => request('GET', '/items', QUERIES.list) },
  count: { dataset: 'items-10k', calls: 3_000, call: () => request('GET', '/items', QUERIES.count) },
  'range-sort': { dataset: 'items-10k', calls: 3_000, call: () => request('GET', '/items', QUERIES.range) },
  equality: { dataset: 'items-10k', calls: 3_000, call: () => request('GET', '/items', QUERIES.equality) },
  contains: { dataset: 'items-10k', calls: 3_000, call: () => request('GET', '/items', QUERIES.contains) },
  'range-sort-indexed': {
    dataset: 'indexed-items-10k',
    calls: 5_000,
    call: () => request('GET', `/${INDEXED}`, QUERIES.range),
  },
  populate: {
    dataset: 'companies',
    calls: 1_000,
    call: () => request('GET', '/companies', QUERIES.populate),
  },
};

const packagesOf = async (tree) => ({
  core: await import(`${tree}/packages/core/dist/index.js`),
  embedded: await import(`${tree}/packages/embedded/dist/index.js`),
});
const built = { before: await packagesOf(TREES.before), now: await packagesOf(TREES.now) };

async function run(name) {
  const { dataset, calls, call } = CASES[name];
  const data = DATASETS[dataset]();
  const ids = data.items === undefined ? [] : sampleIds(data.items);
  const handlers = {};
  for (const [side, { core, embedded }] of Object.entries(built)) {
    const db = embedded.createEmbeddedDb();
    for (const [collection, docs] of Object.entries(structuredClone(data))) {
      for (const doc of docs) await db.collection(collection).insertOne(doc);
    }
    handlers[side] = core.createStoreHandler({
      db,
      resources: RESOURCES,
      logger: { warn() {}, error: console.error },
    });
    await handlers[side].ready;
    const check = await handlers[side](call(ids, 0));
    if (check.status >= 400)
      throw new Error(`${name} (${side}): the store answered ${check.status} ${check.body}`);
  }
  const block = Math.max(1, Math.round(calls / BLOCKS));
  const spent = { before: [], now: [] };
  for (let round = 0; round < ROUNDS * BLOCKS; round++) {
    for (const side of round % 2 === 0 ? ['now', 'before'] : ['before', 'now']) {
      spent[side].push(await microsecondsPerCall(block, (i) => handlers[side](call(ids, i))));
    }
  }
  // Medians, of each side's blocks and of the ratio of each pair of neighbouring blocks: a
  // collection of the old generation lands in one side's block, and a sum would charge it to
  // that side alone (the same tree against itself moved 0.92-1.08 by sums, at ROUNDS=3).
  const us = (side) => median(spent[side]).toFixed(1);
  const ratio = median(spent.now.map((now, i) => now / spent.before[i])).toFixed(3);
  console.log(`${name}: before ${us('before')} µs, now ${us('now')} µs per request (now/before ${ratio})`);
  for (const handler of Object.values(handlers)) await handler.close();
}

for (const name of names.length > 0 ? names : Object.keys(CASES)) await run(name);
process.exit(0);
