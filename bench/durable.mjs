// node bench/durable.mjs   (or: pnpm --filter @store/bench durable)
//
// What durable data costs (issue 16), against the BUILT packages (`pnpm build` first):
//
// 1. `create` through the store's handler (`POST /posts`, no HTTP) with 10 concurrent clients
//    and with 1: in memory, on disk (`data`: journal synced before each answer, concurrent
//    writes sharing one sync), and a lowdb-style contender that rewrites the whole collection
//    as one JSON file (temp file, fsync, rename) after each write, coalescing the writes that
//    arrive while one is under way (as lowdb's steno does).
// 2. Opening a directory of 100,000 documents against `JSON.parse` of the same documents as
//    one file (read included in both).
//
// Prints requests/s per contender and the ratios; medians of ROUNDS alternating rounds.
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStoreHandler } from '@store/core';
import { createEmbeddedDb } from '@store/embedded';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const WRITES = Number(process.env.WRITES ?? 2_000);
const DOCS = Number(process.env.DOCS ?? 100_000);
const quiet = { warn() {}, error() {} };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

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
      data: mkdtempSync(join(tmpdir(), 'bench-durable-')),
      resources: { posts: {} },
      logger: quiet,
    }),
  'whole-file JSON': () => wholeFileStore(mkdtempSync(join(tmpdir(), 'bench-lowdb-'))),
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
  console.log(`create, ${clients} client${clients > 1 ? 's' : ''}, ${WRITES} writes: ${line}`);
}

// Opening 100,000 documents.
const dir = mkdtempSync(join(tmpdir(), 'bench-open-'));
const seeded = createEmbeddedDb({ dir, warn: () => undefined });
const docs = Array.from({ length: DOCS }, (_, i) => ({
  _id: i,
  title: `post ${i}`,
  views: i % 1000,
  tags: ['a', 'b', `t${i % 50}`],
  author: { name: `author ${i % 100}`, email: `a${i % 100}@example.com` },
}));
await Promise.all(docs.map((doc) => seeded.collection('posts').insertOne(doc)));
await seeded.close();
const jsonFile = join(dir, '..', `${DOCS}.json`);
writeFileSync(jsonFile, JSON.stringify({ posts: docs }));
const opens = [];
const parses = [];
for (let round = 0; round < ROUNDS; round++) {
  let started = performance.now();
  const db = createEmbeddedDb({ dir, warn: () => undefined });
  opens.push(performance.now() - started);
  await db.close();
  started = performance.now();
  JSON.parse(readFileSync(jsonFile, 'utf8'));
  parses.push(performance.now() - started);
}
console.log(
  `open ${DOCS} documents: ${median(opens).toFixed(0)} ms; JSON.parse of the same as one file ${median(parses).toFixed(0)} ms` +
    ` (${(median(opens) / median(parses)).toFixed(2)}x)`,
);
