// Compiles/second of @store/query's compileQuery (the BUILT dist) against api-query-params,
// on the same ten query strings, alternating rounds after a warm-up.
// Run: pnpm --filter @store/query build && pnpm --filter @store/query bench
import { performance } from 'node:perf_hooks';
import aqp from 'api-query-params';
import { compileQuery } from '../dist/index.js';

const enc = encodeURIComponent;
const QUERIES = [
  'points:gt=10&tags:in[]=a&tags:in[]=b&$sort=-views&$limit=5',
  'status=published&author.name=Ann&$select=title&$select=author&$page=2',
  'price:gte=10&price:lte=99.5&category:in[]=shoes&category:in[]=bags&$sort=price&$order=asc',
  'title:contains=hello&createdAt:gt:date=2024-01-01&$limit=20',
  'age:gte=18&age:lt=65&country=FR&$count=1',
  'tags:size=0&archived:exists=false&$sort=-createdAt&$sort=title',
  `$query=${enc('{"$or":[{"views":{"$gt":100}},{"featured":true}]}')}&$limit=10`,
  `$regex=${enc('["name","^jo","i"]')}&$populate=comments&$fill=users`,
  'user_id:id=5f1d7f3e9d1b2c3a4b5c6d7e&$$lang=fr&$sort=-updatedAt',
  'q=shoes&brand=acme&brand=zenith&inStock:bool=true&$page=0&$limit=50',
];

const N = Number(process.env.N ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 10);

function safeCompile(q) {
  try {
    return compileQuery(q);
  } catch (error) {
    throw new Error(`benchmark query rejected: ${q}: ${error.message}`);
  }
}

const contenders = {
  '@store/query compileQuery': (q) => safeCompile(q),
  'api-query-params (aqp)': (q) => aqp(q),
};

function time(fn) {
  const start = performance.now();
  let sink = 0;
  for (let i = 0; i < N; i++) for (const q of QUERIES) sink += fn(q) ? 1 : 0;
  const ms = performance.now() - start;
  if (sink !== N * QUERIES.length) throw new Error('unexpected result');
  return ms;
}

for (const fn of Object.values(contenders)) for (let i = 0; i < 3; i++) time(fn); // warm-up

const totals = Object.fromEntries(Object.keys(contenders).map((name) => [name, 0]));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? Object.keys(contenders) : Object.keys(contenders).reverse();
  for (const name of order) totals[name] += time(contenders[name]);
}

const compiles = N * QUERIES.length * ROUNDS;
const rates = Object.fromEntries(Object.entries(totals).map(([name, ms]) => [name, compiles / (ms / 1000)]));
for (const [name, rate] of Object.entries(rates)) {
  console.log(`${name.padEnd(28)} ${Math.round(rate).toLocaleString('en-US').padStart(12)} compiles/s`);
}
const [ours, theirs] = Object.values(rates);
console.log(
  `ratio (compileQuery / aqp): ${(ours / theirs).toFixed(2)}  [node ${process.version}, ${compiles} compiles each]`,
);
