/**
 * Sessions as plugins find them: the session a request carries, from the first plugin that finds
 * one, and whether sessions are still live, asked of the plugin that found each (the event
 * streams' keep-alive check, `ChangeFeed.useSessionCheck`).
 */
import type { RequestSession } from '../model/hooks';
import type { StoreRequest } from '../model/http';
import type { PluginRuntime } from '../model/plugin';
import type { StartedStorage } from '../storage/start-storage';

/** Which plugin found a session: the one asked whether it is still live. */
const foundBy = new WeakMap<RequestSession, PluginRuntime>();

/**
 * The session a request carries, from the first plugin (in the order of `plugins`) that finds
 * one; `null` otherwise, at once (no promise) when no plugin finds sessions.
 */
export function findSession(
  request: StoreRequest,
  started: StartedStorage,
): RequestSession | null | Promise<RequestSession | null> {
  if (!started.plugins.some(({ runtime }) => runtime.findSession !== undefined)) return null;
  return askPlugins(request, started);
}

async function askPlugins(request: StoreRequest, started: StartedStorage): Promise<RequestSession | null> {
  for (const { runtime } of started.plugins) {
    const session = (await runtime.findSession?.(request)) ?? null;
    if (session !== null) {
      foundBy.set(session, runtime);
      return session;
    }
  }
  return null;
}

/**
 * For each session, whether it is still live: one `checkSessions` call per plugin, with the
 * sessions it found. A session found by a plugin without `checkSessions` counts as live (its
 * `expiresAt` still ends it); one no plugin vouches for does not.
 */
export async function checkSessions(sessions: readonly RequestSession[]): Promise<readonly boolean[]> {
  const live = sessions.map(() => false);
  const asked = new Map<PluginRuntime, number[]>();
  for (const [i, session] of sessions.entries()) {
    const runtime = foundBy.get(session);
    if (runtime === undefined) continue;
    if (runtime.checkSessions === undefined) live[i] = true;
    else asked.set(runtime, [...(asked.get(runtime) ?? []), i]);
  }
  await Promise.all(
    [...asked].map(async ([runtime, indexes]) => {
      const answers =
        (await runtime.checkSessions?.(indexes.map((i) => sessions[i] as RequestSession))) ?? [];
      for (const [j, i] of indexes.entries()) live[i] = answers[j] === true;
    }),
  );
  return live;
}
