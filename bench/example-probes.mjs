// node bench/example-probes.mjs   (or: pnpm --filter @store/bench example-probes)
//
// The security sweep's two worst probes, through the example server over HTTP (issue 15's
// "Done means"), on the embedded engine with the BUILT packages (`pnpm build` first):
//
// 1. Regex: 100 people, one in ten named with a 30-character value built to make a
//    backtracking engine explode, then `$regex=["name","(a|a)*$",""]` against a plain list.
//    Prints requests/s of each (10 connections) and the latency of one client's plain list
//    while 10 others send the adversarial regex, beside the same while they send plain lists.
// 2. Amplification: 100 posts that each list the same 1,000 tags of 1.5 KB (1.5 MB stored;
//    `$fill=tags` would be a 150 MB answer). Prints the status and time of the answer and the
//    server's resident memory before and after 3 clients send it for 10 s.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SECONDS = Number(process.env.SECONDS ?? 5);
const serverPath = fileURLToPath(new URL('../examples/server/src/server.js', import.meta.url));

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startExample() {
  const port = await freePort();
  const child = spawn(process.execPath, [serverPath], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', STORE_DATA: 'memory', MONGODB_URI: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => String(chunk).includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`the example server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function post(url, body) {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) throw new Error(`POST ${url}: ${answer.status} ${await answer.text()}`);
}

const load = (url, connections = 10) => autocannon({ url, connections, duration: SECONDS, pipelining: 1 });

const regexPath = `/people?$regex=${encodeURIComponent(JSON.stringify(['name', '(a|a)*$', '']))}`;

const { url, child } = await startExample();
try {
  for (let i = 0; i < 100; i++) {
    await post(`${url}/people`, { _id: i, name: i % 10 === 0 ? `${'a'.repeat(30)}!` : `person ${i}` });
  }
  const check = await fetch(url + regexPath);
  console.log(`regex probe answers ${check.status} with ${(await check.json()).length} documents`);
  const plain = await load(`${url}/people`);
  const adversarial = await load(url + regexPath);
  console.log(
    `plain list ${plain.requests.average.toFixed(0)} req/s, adversarial regex ${adversarial.requests.average.toFixed(0)} req/s:` +
      ` regex costs ${(plain.requests.average / adversarial.requests.average).toFixed(2)}x a plain list`,
  );
  for (const [name, path] of [
    ['plain lists', '/people'],
    ['the adversarial regex', regexPath],
  ]) {
    const [others, one] = await Promise.all([load(url + path, 10), load(`${url}/people`, 1)]);
    console.log(
      `one client's plain list while 10 clients send ${name}: p50 ${one.latency.p50} ms, p99 ${one.latency.p99} ms, max ${one.latency.max} ms` +
        ` (the 10: ${others.requests.average.toFixed(0)} req/s)`,
    );
  }

  const tags = Array.from({ length: 1_000 }, (_, i) => ({ _id: `t${i}`, body: 'x'.repeat(1_500) }));
  for (const tag of tags) await post(`${url}/tags`, tag);
  const tagIds = tags.map((tag) => tag._id);
  for (let i = 1; i <= 100; i++) await post(`${url}/posts`, { _id: i, tag_ids: tagIds });
  const before = rssMiB(child.pid);
  const started = performance.now();
  const answer = await fetch(`${url}/posts?$fill=tags&$limit=100`);
  const body = await answer.json();
  console.log(
    `amplification probe: ${answer.status} ${body.code} in ${(performance.now() - started).toFixed(0)} ms: ${body.detail}`,
  );
  const amplified = await load(`${url}/posts?$fill=tags&$limit=100`, 3);
  console.log(
    `3 clients for ${SECONDS} s: ${amplified.requests.total} answers (${amplified['4xx']} 4xx, ${amplified['5xx']} 5xx),` +
      ` p99 ${amplified.latency.p99} ms; server RSS ${before.toFixed(0)} MiB before, ${rssMiB(child.pid).toFixed(0)} MiB after`,
  );
} finally {
  child.kill('SIGTERM');
}
