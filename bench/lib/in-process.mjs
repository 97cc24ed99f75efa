// What the in-process benchmarks (inprocess.mjs, compare-trees.mjs) share: a store request, and timing.

/** Microseconds per call of `calls` awaited calls of `call(i)`, one after another. */
export async function microsecondsPerCall(calls, call) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call(i);
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}

/** A request to the store's handler: a JSON body when `body` is given. */
export const storeRequest = (method, path, rawQuery = '', body = undefined) => ({
  method,
  path,
  rawQuery,
  headers: body === undefined ? {} : { 'content-type': 'application/json' },
  body,
});
