// Timing for the in-process benchmarks (inprocess.mjs, compare-trees.mjs).

/** Microseconds per call of `calls` awaited calls of `call(i)`, one after another. */
export async function microsecondsPerCall(calls, call) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call(i);
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}
