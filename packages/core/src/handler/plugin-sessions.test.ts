import type { StoreDb } from '@store/common';
import { createEmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestSession } from '../model/hooks';
import type { StoreRequest } from '../model/http';
import type { PluginInstance, PluginRuntime, PluginStoreSeams, StorePlugin } from '../model/plugin';
import type { StartedStorage } from '../storage/start-storage';
import { createStoreHandler } from './handler';
import { checkSessions, findSession } from './plugin-sessions';

declare module '../model/plugin' {
  interface PluginResourceOptions {
    /** The test plugins' options. */
    headerSession?: unknown;
    watched?: unknown;
  }
}

const request = (path: string, headers: StoreRequest['headers'] = {}): StoreRequest => ({
  method: 'GET',
  path,
  rawQuery: '',
  headers,
});

/** What the test plugin lets a test see and steer. */
interface Probe {
  seams?: PluginStoreSeams;
  /** Session ids the plugin no longer vouches for. */
  readonly dead: Set<string>;
  /** The session ids of each `checkSessions` call. */
  readonly checks: string[][];
  /** When set, `checkSessions` waits for it. */
  hold?: Promise<void>;
}

/** A plugin whose session is named by headers: `x-user` (its user's `_id`), `x-session` (its id). */
function headerSession(probe: Probe): StorePlugin {
  return {
    name: 'header-session',
    resourceOption: 'headerSession',
    errorCodes: {},
    setup: () => ({
      collections: [],
      routePaths: ['/header-session'],
      async start(_db: StoreDb, seams: PluginStoreSeams) {
        probe.seams = seams;
        return {
          answer: async () => null,
          async findSession(req) {
            const user = req.headers['x-user'];
            const id = req.headers['x-session'];
            if (typeof user !== 'string' || typeof id !== 'string') return null;
            return { id, user: { _id: user }, expiresAt: new Date(Date.now() + 3_600_000) };
          },
          async checkSessions(sessions) {
            probe.checks.push(sessions.map(({ id }) => id ?? ''));
            await probe.hold;
            return sessions.map(({ id }) => !probe.dead.has(id ?? ''));
          },
        };
      },
    }),
  };
}

function store(probe: Probe) {
  return createStoreHandler({
    db: createEmbeddedDb(),
    plugins: [headerSession(probe)],
    realtime: { keepAliveSeconds: 1 },
    resources: { account: { headerSession: {} }, notes: { access: 'public' } },
  });
}

/** An open event stream as its reader sees it: the events so far, and whether it ended. */
async function subscribe(handle: ReturnType<typeof store>, user: string, session: string) {
  const answer = await handle(
    request('/notes', { accept: 'text/event-stream', 'x-user': user, 'x-session': session }),
  );
  if (answer?.stream === undefined) throw new Error(`no stream: ${answer?.status} ${answer?.body}`);
  const reader = answer.stream.getReader();
  const seen = { text: '', ended: false };
  const done = (async () => {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      seen.text += new TextDecoder().decode(next.value);
    }
    seen.ended = true;
  })();
  return {
    seen,
    /** The events (not comments) received, as `<type> <data>`. */
    events: () =>
      [...seen.text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map(([, type, data]) => `${type} ${data}`),
    /** Resolves once the stream ended. */
    ended: () => done,
  };
}

/** Lets the readers take what the streams queued. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

const DROPPED = 'dropped {"code":"unauthorized","message":"The session ended; sign in again."}';

afterEach(() => {
  vi.useRealTimers();
});

describe('sessions a plugin reports ended', () => {
  it('end the streams of the sessions named, and of every session of the user named, and no others', async () => {
    const probe: Probe = { dead: new Set(), checks: [] };
    const handle = store(probe);
    await handle.ready;
    const phone = await subscribe(handle, 'ada', 's1');
    const laptop = await subscribe(handle, 'ada', 's2');
    const bob = await subscribe(handle, 'bob', 's3');
    const cleo = await subscribe(handle, 'cleo', 's4');

    probe.seams?.sessionsEnded({ sessionIds: ['s1'] });
    await phone.ended();
    expect(phone.events()).toEqual([DROPPED]);
    await settle();
    expect([laptop.seen.ended, bob.seen.ended, cleo.seen.ended]).toEqual([false, false, false]);

    probe.seams?.sessionsEnded({ userId: 'bob' });
    await bob.ended();
    expect(bob.events()).toEqual([DROPPED]);
    await settle();
    expect([laptop.seen.ended, cleo.seen.ended]).toEqual([false, false]);
    await handle.close();
  });

  it('are a no-op for a store without realtime', async () => {
    const probe: Probe = { dead: new Set(), checks: [] };
    const handle = createStoreHandler({
      db: createEmbeddedDb(),
      plugins: [headerSession(probe)],
      realtime: false,
      resources: { account: { headerSession: {} } },
    });
    await handle.ready;
    expect(() => probe.seams?.sessionsEnded({ userId: 'ada' })).not.toThrow();
    await handle.close();
  });
});

describe('the keep-alive session check', () => {
  it('ends the streams of sessions the plugin no longer vouches for, asking once per tick with each session once', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const probe: Probe = { dead: new Set(), checks: [] };
    const handle = store(probe);
    await handle.ready;
    const ada = await subscribe(handle, 'ada', 's1');
    const adaAgain = await subscribe(handle, 'ada', 's1');
    const bob = await subscribe(handle, 'bob', 's2');
    await subscribe(handle, 'cleo', 's3');

    vi.advanceTimersByTime(1000);
    await settle();
    expect(probe.checks).toEqual([['s1', 's2', 's3']]);
    expect([ada.seen.ended, adaAgain.seen.ended, bob.seen.ended]).toEqual([false, false, false]);

    probe.dead.add('s1');
    vi.advanceTimersByTime(1000);
    await Promise.all([ada.ended(), adaAgain.ended()]);
    expect(ada.events()).toEqual([DROPPED]);
    expect(adaAgain.events()).toEqual([DROPPED]);
    await settle();
    expect(bob.seen.ended).toBe(false);
    expect(probe.checks).toHaveLength(2);
    await handle.close();
  });

  it('never runs two checks at once: a keep-alive during a check asks nothing', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let release: () => void = () => undefined;
    const probe: Probe = {
      dead: new Set(['s1']),
      checks: [],
      hold: new Promise((resolve) => {
        release = resolve;
      }),
    };
    const handle = store(probe);
    await handle.ready;
    const ada = await subscribe(handle, 'ada', 's1');
    for (let tick = 0; tick < 3; tick += 1) {
      vi.advanceTimersByTime(1000);
      await settle();
    }
    expect(probe.checks).toEqual([['s1']]);
    expect(ada.seen.ended).toBe(false);
    release();
    await ada.ended();
    expect(ada.events()).toEqual([DROPPED]);
    await handle.close();
  });

  it('asks nothing while no stream has a session', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const probe: Probe = { dead: new Set(), checks: [] };
    const handle = store(probe);
    await handle.ready;
    const answer = await handle(request('/notes', { accept: 'text/event-stream' }));
    expect(answer?.status).toBe(200);
    vi.advanceTimersByTime(3000);
    await settle();
    expect(probe.checks).toEqual([]);
    await handle.close();
  });
});

describe('checkSessions', () => {
  /** Storage started with these plugins (only their runtimes matter here). */
  const started = (...runtimes: PluginRuntime[]): StartedStorage => ({
    db: createEmbeddedDb(),
    plugins: runtimes.map((runtime) => ({ instance: {} as PluginInstance, runtime })),
  });

  /** A runtime that finds the session named by `x-session` and records what it is asked. */
  function runtime(asked: string[][], checks = true): PluginRuntime {
    return {
      answer: async () => null,
      findSession: async (req) => {
        const id = req.headers['x-session'];
        return typeof id === 'string'
          ? { id, user: { _id: id }, expiresAt: new Date(Date.now() + 60_000) }
          : null;
      },
      ...(checks
        ? {
            async checkSessions(sessions: readonly RequestSession[]) {
              asked.push(sessions.map(({ id }) => id ?? ''));
              return sessions.map(({ id }) => id !== 'gone');
            },
          }
        : {}),
    };
  }

  it('asks each plugin once, about the sessions it found, and keeps the order it was given', async () => {
    const firstAsked: string[][] = [];
    const secondAsked: string[][] = [];
    const first = runtime(firstAsked);
    const second = runtime(secondAsked);
    const found = async (plugins: PluginRuntime[], id: string) =>
      (await findSession(request('/notes', { 'x-session': id }), started(...plugins))) as RequestSession;
    const sessions = [
      await found([first, second], 'a'),
      await found([second], 'b'),
      await found([first], 'gone'),
      await found([second], 'c'),
    ];
    expect(await checkSessions(sessions)).toEqual([true, true, false, true]);
    expect(firstAsked).toEqual([['a', 'gone']]);
    expect(secondAsked).toEqual([['b', 'c']]);
  });

  it('counts a session found by a plugin that cannot check as live, and one no plugin found as not', async () => {
    const uncheckable = runtime([], false);
    const found = await findSession(request('/notes', { 'x-session': 'a' }), started(uncheckable));
    const stranger: RequestSession = {
      id: 'x',
      user: { _id: 'x' },
      expiresAt: new Date(Date.now() + 60_000),
    };
    expect(await checkSessions([found as RequestSession, stranger])).toEqual([true, false]);
  });
});

describe("a plugin's hooks on its resource", () => {
  it("run after the application's own, even when that one throws", async () => {
    const calls: string[] = [];
    const errors: unknown[] = [];
    const watching: StorePlugin = {
      name: 'watching',
      resourceOption: 'watched',
      errorCodes: {},
      setup: () => ({
        collections: [],
        routePaths: ['/watching'],
        resource: {
          hooks: {
            afterWrite: (_ctx, { after }) => void calls.push(`plugin wrote ${after._id}`),
            afterDelete: (_ctx, document) => void calls.push(`plugin deleted ${document._id}`),
          },
        },
        start: async () => ({ answer: async () => null }),
      }),
    };
    const handle = createStoreHandler({
      db: createEmbeddedDb(),
      plugins: [watching],
      logger: { error: (...args: unknown[]) => errors.push(args), warn: () => undefined },
      resources: {
        people: {
          watched: {},
          access: 'public',
          hooks: {
            afterWrite: (_ctx, { after }) => {
              calls.push(`application wrote ${after._id}`);
              throw new Error('the application hook failed');
            },
          },
        },
      },
    });
    await handle.ready;
    const json = { 'content-type': 'application/json' };
    const created = await handle({
      ...request('/people'),
      method: 'POST',
      headers: json,
      body: '{"_id":"p1"}',
    });
    expect(created?.status).toBe(201);
    const deleted = await handle({ ...request('/people/p1'), method: 'DELETE' });
    expect(deleted?.status).toBe(204);
    expect(calls).toEqual(['application wrote p1', 'plugin wrote p1', 'plugin deleted p1']);
    expect(errors).toHaveLength(1);
    await handle.close();
  });
});
