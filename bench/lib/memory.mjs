// What event streams cost the store's process in memory (issue 27), each figure measured on a
// fresh store server (memory-server.mjs) by its own `process.memoryUsage()` after full garbage
// collections, before and after the streams: the server's RSS, and its V8 heap plus the memory
// outside it (`heapUsed + external`), steadier than RSS, which keeps pages V8 has freed.
// Clients run in this process or in subscribers.mjs's child, never in the server's.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stopper } from './measure.mjs';
import { holdIdleStreams } from './subscribers.mjs';

const SERVER = fileURLToPath(new URL('./memory-server.mjs', import.meta.url));

/**
 * Bytes of events one reader may fall behind by, set on both trees alike: a store before issue 27
 * (default 256 kB) would end the 1 MB document's stream at its first event; `4mb` is four times
 * the default `bodyLimit`, the default since.
 */
const MAX_QUEUED_BYTES = '4mb';

/** The server's memory: RSS and heap + external, in bytes. */
const footprint = ({ rss, heapUsed, external }) => ({ rss, heap: heapUsed + external });
const growth = (before, after) => ({ rss: after.rss - before.rss, heap: after.heap - before.heap });
const per = (total, count) => ({ rss: total.rss / count, heap: total.heap / count });
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a store server on the tree at `root`; `{ port, memory(), stop() }` once it listens. */
function startServer(root, streams) {
  const child = fork(SERVER, [], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const memory = () =>
    new Promise((resolve, reject) => {
      const answer = (message) => {
        if (message.memory === undefined) return;
        child.off('message', answer);
        resolve(footprint(message.memory));
      };
      child.on('message', answer);
      exited.then((code) => reject(new Error(`the store server on ${root} exited (${code})`)));
      child.send('memory');
    });
  const stop = stopper(child);
  return new Promise((resolve, reject) => {
    child.once('message', (message) => {
      if (message.error) reject(new Error(`the store server on ${root} failed to start:\n${message.error}`));
      else resolve({ port: message.port, memory, stop });
    });
    child.once('exit', (code) => reject(new Error(`the store server on ${root} exited (${code})`)));
    child.send({ root, streams, maxQueuedBytes: MAX_QUEUED_BYTES });
  });
}

/** Runs `measure(server)` on a fresh server, stopping it however `measure` ends. */
async function onServer(root, streams, measure) {
  const server = await startServer(root, streams);
  try {
    return await measure(server);
  } finally {
    await server.stop();
  }
}

/**
 * Reads an event stream as it arrives, counting its events by type and keeping the first and
 * last ids, without keeping the events (a 1 MB document's come in 64 kB chunks).
 */
function readEvents(response) {
  const seen = { events: 0, firstId: undefined, lastId: undefined, types: {} };
  let head = ''; // the start of the block being read
  let newlineLast = false; // the text read so far ends with one `\n` of a block's end
  const endBlock = () => {
    const type = /^event: (.*)$/m.exec(head)?.[1];
    const id = /^id: (.*)$/m.exec(head)?.[1];
    if (type !== undefined) {
      seen.events++;
      seen.types[type] = (seen.types[type] ?? 0) + 1;
    }
    if (id !== undefined) {
      seen.firstId ??= id;
      seen.lastId = id;
    }
    head = '';
  };
  /** Keeps the first 200 characters of a block: its `id:` and `event:` lines. */
  const keep = (text, start, end) => {
    if (head.length < 200) head += text.slice(start, Math.min(end, start + 200 - head.length));
  };
  const read = (text) => {
    let start = 0;
    if (newlineLast && text.startsWith('\n')) {
      endBlock();
      start = 1;
    }
    for (let end = text.indexOf('\n\n', start); end !== -1; end = text.indexOf('\n\n', start)) {
      keep(text, start, end);
      endBlock();
      start = end + 2;
    }
    keep(text, start, text.length);
    newlineLast = start < text.length && text.endsWith('\n');
  };
  (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of response.body) read(decoder.decode(chunk, { stream: true }));
  })().catch(() => undefined);
  return seen;
}

const eventStream = (headers = {}) => ({ headers: { accept: 'text/event-stream', ...headers } });

/** Opens a stream on `url` and reads it (`readEvents`); `close()` goes away. */
async function watch(url) {
  const controller = new AbortController();
  const response = await fetch(url, { ...eventStream(), signal: controller.signal });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return { seen: readEvents(response), close: () => controller.abort() };
}

/** Waits until `ready()` or `ms` passed; whether it became ready. */
async function waitFor(ready, ms) {
  const until = Date.now() + ms;
  while (!ready() && Date.now() < until) await pause(20);
  return ready();
}

async function send(port, method, path, body) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`);
}

/**
 * (a) Idle streams: the server's memory with `streams` streams open on `/items?room=room-<i>`
 * (held by a child process, as the throughput case holds them) against before, per stream. One
 * stream is opened and closed first, so the engine's matching, loaded with the first stream, is
 * not counted.
 */
export function idleStreams(root, { streams }) {
  return onServer(root, streams + 1, async (server) => {
    (await watch(`http://127.0.0.1:${server.port}/items?room=warm-up`)).close();
    await pause(200);
    const before = await server.memory();
    const idle = await holdIdleStreams(server.port, streams);
    try {
      await pause(500);
      const after = await server.memory();
      return { streams, perStream: per(growth(before, after), streams) };
    } finally {
      await idle.stop();
    }
  });
}

/**
 * One reconnect with `Last-Event-ID`: reads until the first event (the replay has begun, or a
 * `reset` came instead), then goes away. Resolves that event's type.
 */
async function reconnectAndAbort(url, lastEventId) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`${url}: no event within 10 s`)), 10_000);
  const response = await fetch(url, {
    ...eventStream({ 'last-event-id': lastEventId }),
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const decoder = new TextDecoder();
  let text = '';
  const reader = response.body.getReader();
  while (!/^event: /m.test(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  clearTimeout(timer);
  controller.abort();
  await reader.cancel().catch(() => undefined);
  return /^event: (.*)$/m.exec(text)?.[1] ?? 'none';
}

/** `count` reconnects, `concurrency` at a time; how many began with each event type. */
async function churn(url, lastEventId, count, concurrency = 10) {
  const types = {};
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started++;
      const type = await reconnectAndAbort(url, lastEventId);
      types[type] = (types[type] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return types;
}

/**
 * (b) Reconnect churn: `writes` items created while one stream watches `/items`, then
 * `reconnects` reconnects with the `Last-Event-ID` of the first (so each is replayed the
 * `writes - 1` others) that go away during the replay; the server's memory after them against
 * before them (after a first 50, so what the first reconnects warm up is not counted).
 */
export function reconnectChurn(root, { reconnects, writes }) {
  return onServer(root, 20, async (server) => {
    const url = `http://127.0.0.1:${server.port}/items`;
    const watcher = await watch(url);
    try {
      for (let i = 0; i < writes; i++) {
        await send(server.port, 'POST', '/items', { n: i, text: `item ${i} `.padEnd(120, '.') });
      }
      if (!(await waitFor(() => watcher.seen.events >= writes, 10_000))) {
        throw new Error(`the watching stream received ${watcher.seen.events} of ${writes} events`);
      }
      await churn(url, watcher.seen.firstId, 50);
      const before = await server.memory();
      const types = await churn(url, watcher.seen.firstId, reconnects);
      await pause(500);
      const after = await server.memory();
      return { reconnects, writes, types, perReconnect: per(growth(before, after), reconnects) };
    } finally {
      watcher.close();
    }
  });
}

/**
 * (c) One document of `kb` kilobytes in `/docs`, patched (`{ n }`) up to `patches` times, for
 * at most `seconds`: with `watched`, one stream reads `/docs` throughout (and is still open when
 * measured). The server's memory after the patches against before them.
 */
export function bigDocument(root, { kb, patches, seconds, watched }) {
  return onServer(root, 4, async (server) => {
    const id = 'big';
    await send(server.port, 'POST', '/docs', { _id: id, n: 0, blob: 'x'.repeat(kb * 1000) });
    for (let i = 1; i <= 3; i++) await send(server.port, 'PATCH', `/docs/${id}`, { n: -i });
    const before = await server.memory();
    const watcher = watched ? await watch(`http://127.0.0.1:${server.port}/docs`) : undefined;
    try {
      const until = Date.now() + seconds * 1000;
      let done = 0;
      while (done < patches && Date.now() < until)
        await send(server.port, 'PATCH', `/docs/${id}`, { n: ++done });
      if (watcher) await waitFor(() => watcher.seen.events >= done, 10_000);
      await pause(200);
      const after = await server.memory();
      const events = watcher === undefined ? null : watcher.seen.types;
      return { kb, patches: done, watched, events, growth: growth(before, after) };
    } finally {
      watcher?.close();
    }
  });
}
