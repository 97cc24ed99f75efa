// The other client of bench/hold.mjs, in its own process (so the heavy request's answer, read
// by the parent, never delays its timing): sequential `GET /posts/<id>`, a random id of the
// data set each time, one connection. The parent sends `{ port, posts }` and receives
// `{ ready }`; `'run'` starts the requests; `'halt'` stops them once the one in flight is
// answered and receives `{ samples }`, each `[sent, answered, status]` (ms on the machine's
// wall clock, shared with the parent; when no answer came, status 0 and the error's code);
// `'stop'` ends it. Ends too when the parent goes, and a run never lasts longer than
// `MAX_RUN_MS` without a halt.
import { postIds } from './hold-data.mjs';

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes. */
const now = () => performance.timeOrigin + performance.now();

/** A request unanswered this long counts as failed (status 0). */
const REQUEST_TIMEOUT_MS = 60_000;
/** A run the parent did not halt ends here: the loop is bounded whatever happens to the parent. */
const MAX_RUN_MS = 15 * 60_000;

let ids = [];
let base = '';
let running = false;
let samples = [];
let loop = Promise.resolve();

async function ask() {
  const id = ids[Math.floor(Math.random() * ids.length)];
  const sent = now();
  try {
    const response = await fetch(`${base}/posts/${id}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    await response.arrayBuffer();
    samples.push([sent, now(), response.status]);
  } catch (error) {
    samples.push([sent, now(), 0, error?.cause?.code ?? error?.name ?? 'error']);
  }
}

async function run() {
  const began = now();
  while (running && now() - began < MAX_RUN_MS) await ask();
  running = false;
}

process.on('message', (message) => {
  if (message === 'run' && !running) {
    running = true;
    loop = run();
  } else if (message === 'halt') {
    running = false;
    loop.then(() => {
      process.send({ samples });
      samples = [];
    });
  } else if (message === 'stop') {
    process.exit(0);
  } else if (message?.port !== undefined) {
    base = `http://127.0.0.1:${message.port}`;
    ids = postIds(message.posts);
    process.send({ ready: true });
  }
});
process.on('disconnect', () => process.exit(0));
