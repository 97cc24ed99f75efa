// Event streams for the realtime cases: `idle` streams held open in a child process (so the load
// generator's event loop carries none of them), and the latency probe: a watched write, timed
// from the request to its answer and from the answer to its event.
import { fork } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);

/**
 * The room of the `i`-th idle stream (`GET /items?room=<room>`), and of the `i`-th item a
 * realtime case creates: created items take the rooms in turn, so each matches one stream.
 */
export const roomOf = (i, rooms) => `room-${i % rooms}`;

/**
 * Opens `count` streams on `/items?room=room-<i>` in a child process: idle readers, each sent
 * the created items of its room (the child drains them). Resolves `{ stop }`.
 */
export function holdIdleStreams(port, count) {
  const child = fork(SELF, ['--hold', String(port), String(count)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => {
      if (message.error) reject(new Error(message.error));
      else resolve({ stop: () => new Promise((done) => child.once('exit', done).kill()) });
    });
    child.once('exit', (code) => reject(new Error(`the idle streams exited (${code})`)));
  });
}

/**
 * Opens one stream and reads it: `onEvent(data)` per event, or, without `onEvent`, the bytes
 * are only drained (as a reader on another machine would cost this one nothing). Resolves once
 * the store answered.
 */
async function openStream(url, onEvent) {
  if (onEvent === undefined) return drainStream(url);
  const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  (async () => {
    if (onEvent === undefined) {
      for await (const _chunk of response.body);
      return;
    }
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of response.body) {
      text += decoder.decode(chunk, { stream: true });
      let end = text.indexOf('\n\n');
      while (end !== -1) {
        const data = /^data: (.*)$/m.exec(text.slice(0, end))?.[1];
        if (data !== undefined) onEvent(JSON.parse(data));
        text = text.slice(end + 2);
        end = text.indexOf('\n\n');
      }
    }
  })().catch(() => undefined);
}

/** One buffer every drained stream reads into: its bytes are never looked at past the status line. */
const DRAIN_BUFFER = Buffer.alloc(64 * 1024);

/**
 * Opens a stream whose bytes are only drained, on a raw socket reading into one shared buffer
 * (`onread`): no HTTP parser, no allocation per read. `fetch` or `node:http` would cost this
 * process more CPU per event than the store spends sending it, and on a 2-core machine that CPU
 * is taken from the store. Resolves once the store answered 200.
 */
function drainStream(url) {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    let answered = false;
    const socket = connect({
      host: hostname,
      port: Number(port),
      onread: {
        buffer: DRAIN_BUFFER,
        callback: (bytes, buffer) => {
          if (answered) return;
          answered = true;
          const status = buffer.toString('latin1', 0, Math.min(bytes, 16)).split(' ')[1];
          if (status === '200') resolve();
          else reject(new Error(`${url}: ${status}`));
        },
      },
    });
    socket.on('error', (error) => (answered ? undefined : reject(error)));
    socket.write(
      `GET ${pathname}${search} HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept: text/event-stream\r\n\r\n`,
    );
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/**
 * `writes` sequential `POST /items` of a watched item: p50/p99 (ms) of the write (request sent
 * to answer read) and of its event (answer read to event received; negative when the event
 * came first).
 */
export async function measureLatency(port, writes = 500) {
  const waiting = new Map();
  await openStream(`http://127.0.0.1:${port}/items?tag=watched`, (doc) =>
    waiting.get(doc._id)?.(performance.now()),
  );
  const write = [];
  const event = [];
  for (let i = 0; i < writes; i++) {
    const _id = `watched-${process.pid}-${i}`;
    const arrived = new Promise((resolve) => waiting.set(_id, resolve));
    const sent = performance.now();
    const reply = await fetch(`http://127.0.0.1:${port}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ _id, tag: 'watched', n: i }),
    });
    await reply.text();
    const answered = performance.now();
    const received = await arrived;
    waiting.delete(_id);
    write.push(answered - sent);
    event.push(received - answered);
  }
  const summary = (values) => {
    const sorted = values.sort((a, b) => a - b);
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  };
  return { writes, write: summary(write), event: summary(event) };
}

if (process.argv[2] === '--hold') {
  const [port, count] = process.argv.slice(3).map(Number);
  const opening = [];
  for (let i = 0; i < count; i++) {
    opening.push(openStream(`http://127.0.0.1:${port}/items?room=${roomOf(i, count)}`));
  }
  Promise.all(opening).then(
    () => process.send({ ready: true }),
    (error) => process.send({ error: String(error?.stack ?? error) }),
  );
  process.on('disconnect', () => process.exit(0));
}
