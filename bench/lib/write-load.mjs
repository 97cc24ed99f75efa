// The durable write table's loads: acknowledged creates/s by N concurrent writers over HTTP
// (`store serve --data` in its own process) and in-process (the engine's `insertOne`), and the
// fsync floor they are compared with (a write + fdatasync loop on the same disk).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  fdatasyncSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedDb } from '@store/embedded';

/** The `store` binary, built. */
export const STORE_BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));

/** The document every create writes (its `_id` is generated). */
const createBody = (i) => ({ title: `post ${i}`, views: i, tags: ['a', 'b'] });

/** Bytes of every `journal-*.log` of `dir`. */
const journalBytes = (dir) =>
  readdirSync(dir)
    .filter((name) => /^journal-\d+\.log$/.test(name))
    .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

/** The journal's bytes for one create: what the floor's loop writes per sync. */
export async function recordBytes(dir) {
  const db = createEmbeddedDb({ dir, warn: () => undefined });
  const before = journalBytes(dir);
  await db.collection('posts').insertOne(createBody(0));
  const bytes = journalBytes(dir) - before;
  await db.close();
  return bytes;
}

/** Synced appends/s of `bytes`-byte records in a file of `dir`, one at a time, for `seconds`. */
export function fsyncFloor(dir, bytes, seconds) {
  const fd = openSync(join(dir, 'floor.log'), 'a');
  const record = Buffer.alloc(bytes, 1);
  let count = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  try {
    while (performance.now() < end) {
      writeSync(fd, record);
      fdatasyncSync(fd);
      count++;
    }
  } finally {
    closeSync(fd);
  }
  return count / ((performance.now() - started) / 1000);
}

/** Runs `writers` loops of `once(i)` for `seconds`; answers acknowledged operations/s. */
async function loops(writers, seconds, once) {
  let next = 0;
  let acknowledged = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (performance.now() < end) {
        await once(next++);
        acknowledged++;
      }
    }),
  );
  return acknowledged / ((performance.now() - started) / 1000);
}

/** Creates/s of the engine's `insertOne` on a data directory, `writers` at a time. */
export async function inProcessRate(dir, writers, seconds) {
  const db = createEmbeddedDb({ dir, warn: () => undefined });
  const posts = db.collection('posts');
  try {
    return await loops(writers, seconds, (i) => posts.insertOne(createBody(i)));
  } finally {
    await db.close();
  }
}

/**
 * Starts `store serve --data <dir>` (rate limits off, no docs page) in its own process; `nodeArgs`
 * go to node (`--cpu-prof` to see where a create's time goes).
 */
export async function startServer(dir, nodeArgs = []) {
  const configDir = mkdtempSync(join(tmpdir(), 'bench-config-'));
  const config = join(configDir, 'store.config.mjs');
  writeFileSync(config, 'export default { rateLimit: false };\n');
  const child = spawn(
    process.execPath,
    [...nodeArgs, STORE_BIN, 'serve', '--data', dir, '--port', '0', '--config', config, '--no-docs'],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, STORE_DATA: '' } },
  );
  let out = '';
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const serving = /store serving http:\/\/[^\s]+:(\d+)/.exec(out);
      if (serving) resolve(Number(serving[1]));
    });
    child.once('exit', (code) => reject(new Error(`store serve exited (${code}): ${out}`)));
  });
  return {
    port,
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/** Creates/s of `POST /posts` on `port`, `writers` keep-alive connections at a time. */
export async function httpRate(port, writers, seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: writers });
  const post = (i) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(createBody(i));
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/posts',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 201 ? resolve() : reject(new Error(`create answered ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  try {
    return await loops(writers, seconds, post);
  } finally {
    agent.destroy();
  }
}
