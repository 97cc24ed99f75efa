/**
 * Change events: streams end as soon as their session does, and stream slots are
 * capped per client with a share kept for signed-in readers. Part of `realtime-trust.suite.ts`.
 */
import { expect, it } from 'vitest';
import { type AccessApi, startAccess } from './access-fixtures';
import type { EventClient } from './event-client';
import type { Start } from './fixtures';
import { anotherSession, exactly, openAs, subscribe, write } from './realtime-steps';

/** Long enough that only a stream ended at once (not at the next keep-alive) passes. */
const SLOW_KEEP_ALIVE = { realtime: { keepAliveSeconds: 60 } };

const ADA = 'ada@example.test';

/** Asserts the stream's one event is `dropped` `unauthorized`, then that the store ended it. */
async function expectEndedUnauthorized(client: EventClient): Promise<void> {
  expect(client.status).toBe(200);
  const [last] = await client.waitFor(1);
  expect(last).toMatchObject({ event: 'dropped', data: { code: 'unauthorized' } });
  await client.ended;
  expect(client.events).toHaveLength(1);
}

/** Asserts a refused stream: 429 problem `too_many_streams` with a `Retry-After`. */
async function expectTooManyStreams(refused: EventClient): Promise<void> {
  expect(refused.status).toBe(429);
  expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(JSON.parse(await refused.text())).toMatchObject({ status: 429, code: 'too_many_streams' });
}

/** Opens `count` anonymous streams of `/open` one after the other; each must open. */
async function anonymousStreams(access: AccessApi, count: number): Promise<EventClient[]> {
  const streams: EventClient[] = [];
  for (let i = 0; i < count; i++) streams.push(await subscribe(access, 'anonymous', '/open'));
  expect(streams.map(({ status }) => status)).toEqual(streams.map(() => 200));
  return streams;
}

function sessionEndTests(start: Start): void {
  it("ends a stream with dropped unauthorized as soon as its session signs out, not the same user's other session", async () => {
    const access = await startAccess(start, {}, SLOW_KEEP_ALIVE);
    const other = await anotherSession(access, ADA);
    const signedOut = await subscribe(access, 'ada', '/notes');
    const staying = await openAs(access, '/notes', other);
    const reply = await access.send('ada', 'POST', '/auth/logout');
    expect(reply.status, reply.text).toBe(204);
    await expectEndedUnauthorized(signedOut);
    const written = await access.api.send('POST', '/notes', {
      json: { _id: 'a-after', title: 'still signed in' },
      headers: other,
    });
    expect(written.status, written.text).toBe(201);
    expect(await exactly(staying, 1)).toEqual(['created a-after']);
    staying.close();
  });

  it("ends every stream of the user at once on POST /auth/logout-everywhere, and no other user's", async () => {
    const access = await startAccess(start, {}, SLOW_KEEP_ALIVE);
    const other = await anotherSession(access, ADA);
    const adaStreams = [
      await subscribe(access, 'ada', '/notes'),
      await openAs(access, '/notes', other),
      await openAs(access, '/team-tasks', other),
    ];
    const bobStream = await subscribe(access, 'bob', '/notes');
    const reply = await access.send('ada', 'POST', '/auth/logout-everywhere');
    expect(reply.status, reply.text).toBe(204);
    for (const stream of adaStreams) await expectEndedUnauthorized(stream);
    expect((await access.send('ada', 'GET', '/notes')).status).toBe(401);
    expect((await access.api.send('GET', '/notes', { headers: other })).status).toBe(401);
    await write(access, 'bob', 'POST', '/notes', { _id: 'b-after', title: 'bob still here' });
    expect(await exactly(bobStream, 1)).toEqual(['created b-after']);
    bobStream.close();
  });
}

function slotTests(start: Start): void {
  it('answers 429 too_many_streams past maxStreamsPerClient, still opens a signed-in reader, and has room once one closes', async () => {
    const access = await startAccess(start, {}, { realtime: { maxStreamsPerClient: 5 } });
    const streams = await anonymousStreams(access, 5);
    await expectTooManyStreams(await subscribe(access, 'anonymous', '/open'));
    const ada = await subscribe(access, 'ada', '/notes');
    expect(ada.status).toBe(200);
    streams[0]?.close();
    await expect
      .poll(async () => {
        const next = await subscribe(access, 'anonymous', '/open');
        next.close();
        return next.status;
      })
      .toBe(200);
    for (const stream of [...streams, ada]) stream.close();
  });

  it('keeps signedInShare of maxSubscribers for signed-in readers: anonymous streams past the rest get 429', async () => {
    const realtime = { maxSubscribers: 10, signedInShare: 0.5, maxStreamsPerClient: 100 };
    const access = await startAccess(start, {}, { realtime });
    const streams = await anonymousStreams(access, 5);
    await expectTooManyStreams(await subscribe(access, 'anonymous', '/open'));
    const signedIn = [await subscribe(access, 'ada', '/notes'), await subscribe(access, 'bob', '/notes')];
    expect(signedIn.map(({ status }) => status)).toEqual([200, 200]);
    for (const stream of [...streams, ...signedIn]) stream.close();
  });
}

/** The sessions and slots cases of issue 27. */
export function realtimeSlotTests(start: Start): void {
  sessionEndTests(start);
  slotTests(start);
}
