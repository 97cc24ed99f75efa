// node bench/regex.mjs   (or: pnpm --filter @store/bench regex)
//
// What one adversarial regex costs the server, as a ratio to a plain list: the security
// sweep's `$regex=["name","(a|a)*$",""]` (exponential for a backtracking engine: 13 s over 28
// characters before the embedded engine matched with RE2) against `GET /people` on the same
// data, through `createStoreHandler()` on the embedded engine, without HTTP. The collection holds
// 100 documents, one in ten with a value built to make backtracking explode (30 characters,
// then 3,000). Prints microseconds per request and two ratios: to a plain list (`GET /people`,
// which stops after its first page) and to a benign regex that also scans every document
// (`$regex=["name","^person 1"]`). Runs against the BUILT packages (`pnpm build` first).
import { createStoreHandler } from '@store/core';
import { createEmbeddedDb } from '@store/embedded';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const BLOCKS = 20;
const CALLS = 2_000;
const DOCS = 100;

const PATTERNS = [
  ['(a|a)*$', ''],
  ['(\\w|\\d)+$', ''],
  ['.*.*=', ''],
  ['a*a*b', ''],
];

async function loaded(length) {
  const db = createEmbeddedDb();
  const people = db.collection('people');
  for (let i = 0; i < DOCS; i++) {
    const name = i % 10 === 0 ? `${'a'.repeat(length)}!` : `person ${i}`;
    await people.insertOne({ _id: i, name, tags: [name] });
  }
  return db;
}

const request = (rawQuery) => ({ method: 'GET', path: '/people', rawQuery, headers: {}, body: undefined });

async function time(calls, call) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call();
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}

const regexQuery = (pattern, flags = '') =>
  `$regex=${encodeURIComponent(JSON.stringify(['name', pattern, flags]))}`;

/** Mean microseconds per request of each query, in short alternating blocks. */
async function measure(handler, queries) {
  for (const query of queries) {
    const check = await handler(request(query));
    if (check.status !== 200) throw new Error(`${query}: the store answered ${check.status} ${check.body}`);
  }
  // Short alternating blocks: a slow spell of a shared machine weighs on all sides alike.
  const block = Math.max(1, Math.round(CALLS / BLOCKS));
  const spent = queries.map(() => 0);
  for (let round = 0; round < ROUNDS * BLOCKS; round++) {
    for (const [i, query] of queries.entries()) spent[i] += await time(block, () => handler(request(query)));
  }
  return spent.map((total) => total / (ROUNDS * BLOCKS));
}

for (const length of [30, 3000]) {
  const db = await loaded(length);
  const handler = createStoreHandler({
    db,
    resources: { people: {} },
    logger: { warn() {}, error: console.error },
  });
  await handler.ready;
  for (const [pattern, flags] of PATTERNS) {
    const [adversarial, plain, benign] = await measure(handler, [
      regexQuery(pattern, flags),
      '',
      regexQuery('^person 1'),
    ]);
    console.log(
      `${length} chars: $regex=["name","${pattern}","${flags}"] ${adversarial.toFixed(1)} µs;` +
        ` adversarial/plain list ${(adversarial / plain).toFixed(2)} (${plain.toFixed(1)} µs),` +
        ` adversarial/benign regex ${(adversarial / benign).toFixed(2)} (${benign.toFixed(1)} µs)`,
    );
  }
  await handler.close();
}
