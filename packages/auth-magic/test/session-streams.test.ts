/**
 * Sign-in sessions and event streams over real HTTP: an event stream ends (`dropped`, `unauthorized`) as
 * soon as its session does: sign-out, sign-out everywhere, a revocation, a block, and (at the next
 * keep-alive) a session ended outside the store.
 */
import type { StoreDb } from '@store/common';
import { createStoreHandler, type ResourcePlugin, writeNodeResponse } from '@store/core';
import { describeEngines, type EventClient, listenServed, openEvents } from '@store/test-kit';
import { afterEach, expect, it } from 'vitest';
import { type MagicAuthInstance, magicAuth } from '../src/index';
import { createCapturingMailer } from '../src/testing';
import { MOUNT, storeRequestOf } from './support/served-auth';

const quiet = { error: console.error, warn: () => undefined };

/** What a stream's reader sees when its session ends. */
const SESSION_ENDED = { event: 'dropped', data: { code: 'unauthorized', message: expect.any(String) } };

/**
 * A store with passwordless login and `notes` (any signed-in reader), served on 127.0.0.1; with
 * the plugin instance the store resolved (for `revokeUserSessions(userId)`).
 */
async function serve(db: StoreDb, keepAliveSeconds?: number) {
  const mailer = createCapturingMailer();
  let instance: MagicAuthInstance | undefined;
  const plugin: ResourcePlugin = {
    ...magicAuth,
    setup(input) {
      const made = magicAuth.setup(input);
      instance = (made as MagicAuthInstance | null) ?? undefined;
      return made;
    },
  };
  const store = createStoreHandler({
    db,
    secret: 'session-streams-secret-0123456789',
    baseUrl: 'http://store.test',
    logger: quiet,
    plugins: [plugin],
    ...(keepAliveSeconds === undefined ? {} : { realtime: { keepAliveSeconds } }),
    resources: {
      user: {
        auth: { magicCode: {}, mailer, rateLimit: { perAddress: { max: 1000 }, perIp: { max: 1000 } } },
        // Each user reads their own document; an administrator may change anyone's.
        access: { read: 'owner', update: (ctx) => ctx.user?.role === 'admin' },
      },
      notes: { access: 'authenticated' },
    },
  });
  await store.ready;
  const served = await listenServed(
    (req, res) => {
      store(storeRequestOf(req)).then((answer) =>
        answer === null ? res.writeHead(404).end() : writeNodeResponse(res, answer),
      );
    },
    MOUNT,
    store,
  );
  if (instance === undefined) throw new Error('the auth plugin is off');
  return { ...served, db, mailer, plugin: instance };
}

type Served = Awaited<ReturnType<typeof serve>>;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function send(
  served: Served,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  json?: unknown,
) {
  if (json === undefined) return fetch(`${served.url}${path}`, { method, headers });
  const body = JSON.stringify(json);
  return fetch(`${served.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

/** Signs `email` in with a mailed code: a new session (token) and the user's `_id`. */
async function signIn(served: Served, email: string): Promise<{ token: string; userId: string }> {
  await send(served, 'POST', '/auth/magic-code/', {}, { email });
  const verified = await send(
    served,
    'POST',
    '/auth/magic-code/verify',
    {},
    {
      email,
      code: served.mailer.lastCodeTo(email),
    },
  );
  expect(verified.status).toBe(200);
  const { token, user } = (await verified.json()) as { token: string; user: { _id: string } };
  return { token, userId: user._id };
}

/** Opens the `notes` stream of a session. */
async function subscribe(served: Served, token: string): Promise<EventClient> {
  const client = await openEvents(`${served.url}/notes`, bearer(token));
  expect(client.status).toBe(200);
  return client;
}

/** Whether a stream is still open a moment after the others ended (a note reaches it). */
async function stillOpen(served: Served, writer: string, clients: EventClient[]): Promise<void> {
  const before = clients.map((client) => client.events.length);
  const posted = await send(served, 'POST', '/notes', bearer(writer), { text: 'after' });
  expect(posted.status).toBe(201);
  await Promise.all(clients.map((client, i) => client.waitFor((before[i] ?? 0) + 1)));
  for (const client of clients) expect(client.events.at(-1)).toMatchObject({ event: 'created' });
}

/** Waits for a stream to receive `dropped` `unauthorized`, its only event, and end. */
async function expectEnded(client: EventClient): Promise<void> {
  await client.waitFor(1);
  await client.ended;
  expect(client.events).toEqual([expect.objectContaining(SESSION_ENDED)]);
}

describeEngines('event streams end with their session', (engine) => {
  const servers: Served[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((served) => served.close()));
  });
  async function start(keepAliveSeconds?: number) {
    const served = await serve(await engine.createDb(), keepAliveSeconds);
    servers.push(served);
    return served;
  }

  it('sign-out ends the streams of that session only; another session of the same user keeps its own', async () => {
    const served = await start();
    const phone = await signIn(served, 'ada@example.test');
    const laptop = await signIn(served, 'ada@example.test');
    const phoneStream = await subscribe(served, phone.token);
    const laptopStream = await subscribe(served, laptop.token);

    const out = await send(served, 'POST', '/auth/logout', bearer(phone.token));
    expect(out.status).toBe(204);
    await expectEnded(phoneStream);
    await stillOpen(served, laptop.token, [laptopStream]);
  });

  it("sign-out everywhere ends every stream of that user, not another user's, and clears the cookie", async () => {
    const served = await start();
    const phone = await signIn(served, 'ada@example.test');
    const laptop = await signIn(served, 'ada@example.test');
    const bob = await signIn(served, 'bob@example.test');
    const streams = [await subscribe(served, phone.token), await subscribe(served, laptop.token)];
    const bobStream = await subscribe(served, bob.token);

    const out = await send(served, 'POST', '/auth/logout-everywhere', {
      cookie: `store_session=${laptop.token}`,
      'x-requested-with': 'fetch',
    });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(
      /^store_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/,
    );
    await Promise.all(streams.map(expectEnded));
    for (const token of [phone.token, laptop.token]) {
      expect((await send(served, 'GET', '/auth/session', bearer(token))).status).toBe(401);
    }
    await stillOpen(served, bob.token, [bobStream]);
  });

  it('sign-out everywhere without a live session answers 401 unauthorized', async () => {
    const served = await start();
    const out = await send(served, 'POST', '/auth/logout-everywhere', { 'x-requested-with': 'fetch' });
    expect(out.status).toBe(401);
    expect(out.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await out.json()).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it("revokeUserSessions ends that user's streams", async () => {
    const served = await start();
    const ada = await signIn(served, 'ada@example.test');
    const bob = await signIn(served, 'bob@example.test');
    const adaStream = await subscribe(served, ada.token);
    const bobStream = await subscribe(served, bob.token);
    const user = await served.db.collection('users').findOne({ email: 'ada@example.test' });
    expect(await served.plugin.revokeUserSessions(user?._id)).toBe(1);
    await expectEnded(adaStream);
    await stillOpen(served, bob.token, [bobStream]);
  });

  it("an administrator's block through the store ends the user's streams at once", async () => {
    const served = await start();
    await served.db.collection('users').insertOne({ email: 'root@example.test', role: 'admin' });
    const root = await signIn(served, 'root@example.test');
    const ada = await signIn(served, 'ada@example.test');
    const adaStream = await subscribe(served, ada.token);
    const rootStream = await subscribe(served, root.token);

    const blocked = await send(served, 'PATCH', `/users/${ada.userId}`, bearer(root.token), {
      blocked: true,
    });
    expect(blocked.status).toBe(200);
    await expectEnded(adaStream);
    expect((await send(served, 'GET', '/auth/session', bearer(ada.token))).status).toBe(401);
    await stillOpen(served, root.token, [rootStream]);
  });

  it('a session deleted outside the store ends its stream at the next keep-alive', async () => {
    const served = await start(1);
    const ada = await signIn(served, 'ada@example.test');
    const bob = await signIn(served, 'bob@example.test');
    const adaStream = await subscribe(served, ada.token);
    const bobStream = await subscribe(served, bob.token);

    // Another process revokes Ada's session: this store is not told.
    const user = await served.db.collection('users').findOne({ email: 'ada@example.test' });
    await served.db.collection('svc-sessions').deleteMany({ userId: user?._id });
    await expectEnded(adaStream);
    await stillOpen(served, bob.token, [bobStream]);
  });

  it('a user blocked outside the store loses their streams at the next keep-alive', async () => {
    const served = await start(1);
    const ada = await signIn(served, 'ada@example.test');
    const adaStream = await subscribe(served, ada.token);
    await served.db.collection('users').updateOne({ email: 'ada@example.test' }, { $set: { blocked: true } });
    await expectEnded(adaStream);
  });
});
