// What a benchmark's server process holds, read by the process itself (memory-server.mjs,
// scale-probe.mjs), started with `--expose-gc`.

/**
 * `process.memoryUsage()` after full collections until the heap stops shrinking (at most five),
 * with a pause between them for closed sockets and finished timers to run their last callbacks;
 * as it is when `gc` is not exposed.
 */
export async function collectedMemory() {
  if (typeof globalThis.gc !== 'function') return process.memoryUsage();
  let heapUsed = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = process.memoryUsage().heapUsed;
    if (now >= heapUsed * 0.999) break;
    heapUsed = now;
  }
  return process.memoryUsage();
}
