// The realtime options a bench store needs to hold its streams: every stream is anonymous and
// comes from 127.0.0.1, so a store with per-client caps (issue 27: `maxStreamsPerClient`, and
// `signedInShare` keeping part of `maxSubscribers` for signed-in readers) must be told to let
// one address hold them all. Imports nothing, so a server loading another tree's packages
// (bench/lib/memory-server.mjs) can ask that tree's `resolveStoreOptions`.

const quiet = { warn: () => {}, error: () => {} };

/**
 * `realtime` options letting `streams` anonymous streams from one address open on the store
 * whose `resolveStoreOptions` is given: `maxSubscribers`, and the per-client caps where that
 * store knows them (an older store rejects the unknown options, so they are left out).
 */
export function realtimeLimits(resolveStoreOptions, streams) {
  const perClient = { maxStreamsPerClient: streams, signedInShare: 0 };
  try {
    resolveStoreOptions({ realtime: perClient, logger: quiet });
    return { maxSubscribers: streams, ...perClient };
  } catch {
    return { maxSubscribers: streams };
  }
}
