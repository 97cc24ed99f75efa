// Event streams for the realtime cases: `idle` streams held open in a child process (so the load
// generator's event loop carries none of them), and the latency probe: a watched write, timed
// from the request to its answer and from the answer to its event.
import { fork } from 'node:child_process';
import { readSync } from 'node:fs';
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
 * the created items of its room (the child drains them). Resolves `{ stop }`; `stop` rejects
 * when the store ended any of the streams before it (a dropped stream would make the case
 * measure fewer than `count`).
 */
export function holdIdleStreams(port, count) {
  const child = fork(SELF, ['--hold', String(port), String(count)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let ended = 0;
  const stop = () =>
    new Promise((done, fail) => {
      child.once('exit', () =>
        ended === 0 ? done() : fail(new Error(`the store ended ${ended} of the ${count} idle streams`)),
      );
      child.kill();
    });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => {
      if (message.error) return reject(new Error(message.error));
      child.on('message', (later) => {
        if (later.ended) ended++;
      });
      resolve({ stop });
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
          if (status === '200') resolve(socket);
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

/** How often the idle streams are read: each read takes every event that arrived since. */
const READ_EVERY_MS = 250;

/**
 * Reads `sockets` every {@link READ_EVERY_MS} with `read(2)` on their descriptors, never waiting on
 * them. On loopback the kernel wakes a waiting reader from inside the writer's `write`, and on this
 * machine each such wake-up costs the writer 10-25 µs of CPU (`perf`: `sock_def_readable`), a cost
 * that a reader on another machine does not put on the store. Pausing a socket is not enough:
 * libuv stops watching it only after its next event. The store still writes each event as it
 * happens, and the kernel still delivers it. A stream that ends (end of file, or an error) calls
 * `onEnd`.
 */
function readWithoutWaiting(sockets, onEnd) {
  const open = new Map(sockets.map((socket) => [socket._handle.fd, socket]));
  for (const socket of sockets) socket.pause();
  setInterval(() => {
    for (const fd of open.keys()) {
      try {
        while (readSync(fd, DRAIN_BUFFER) > 0);
      } catch (error) {
        if (error.code === 'EAGAIN') continue;
      }
      open.delete(fd);
      onEnd();
    }
  }, READ_EVERY_MS);
}

if (process.argv[2] === '--hold') {
  const [port, count] = process.argv.slice(3).map(Number);
  const opening = [];
  for (let i = 0; i < count; i++) {
    opening.push(openStream(`http://127.0.0.1:${port}/items?room=${roomOf(i, count)}`));
  }
  Promise.all(opening).then(
    (sockets) => {
      readWithoutWaiting(sockets, () => process.send({ ended: true }));
      process.send({ ready: true });
    },
    (error) => process.send({ error: String(error?.stack ?? error) }),
  );
  process.on('disconnect', () => process.exit(0));
}
