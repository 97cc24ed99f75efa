// Child processes for the contenders, one checked request each, and autocannon runs.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SERVER = fileURLToPath(new URL('./server.mjs', import.meta.url));

/** Stops a forked server: asks it to (`'stop'` over IPC), kills it after 10 s; resolves once it exited. */
export function stopper(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return async () => {
    if (child.connected) child.send('stop');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
}

/**
 * Starts a contender in its own process; resolves `{ port, stop }` once it listens. With
 * `profileDir`, the process writes a V8 CPU profile there when it stops (`node --cpu-prof`).
 */
export function spawnContender({ contender, dataset, engine, profileDir }) {
  const execArgv = profileDir
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${profileDir}`,
        `--cpu-prof-name=${engine}-${dataset}-${contender}.cpuprofile`,
      ]
    : [];
  const child = fork(SERVER, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const stop = stopper(child);
  return new Promise((resolve, reject) => {
    child.once('message', (message) => {
      if (message.error) reject(new Error(`${contender} on ${dataset} failed to start:\n${message.error}`));
      else resolve({ port: message.port, pid: child.pid, stop });
    });
    child.once('exit', (code) =>
      reject(new Error(`${contender} on ${dataset} exited (${code}) before listening`)),
    );
    child.send({ contender, dataset, engine });
  });
}

/** One request as a contender's spec describes it (`checkPath` for specs that walk ids). */
export async function requestOnce(port, spec, checkPath) {
  const path = spec.path ?? checkPath;
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
  });
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: await response.text(),
  };
}

/**
 * Waits until a contender has answered what autocannon left in flight: a request queued behind
 * them answers last, so the next contender's window starts on an idle machine.
 */
async function settle(port) {
  await fetch(`http://127.0.0.1:${port}/bench-settle`).then(
    (response) => response.arrayBuffer(),
    () => undefined,
  );
}

/**
 * Loads a contender for `seconds` with autocannon (10 connections, no pipelining) and returns
 * requests per second over the whole run, the p99 latency in ms, and the failures seen.
 */
export async function load(port, spec, seconds, connections = 10) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    ...(spec.path ? { requests: [{ path: spec.path }] } : {}),
    ...(spec.requests ? { requests: spec.requests } : {}),
  });
  await settle(port);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p99ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
