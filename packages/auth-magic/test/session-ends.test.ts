/**
 * Sessions that end tell the store (`PluginStoreSeams.sessionsEnded`), so the event streams
 * opened with them end too; `checkSessions` answers the streams' keep-alive check.
 */
import type { EndedSessions } from '@store/core';
import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
import {
  type AuthDeps,
  checkSessions,
  createAuthDeps,
  createSession,
  findSession,
  logout,
  logoutEverywhere,
  revokeUserSessions,
} from '../src/index';
import { countedDb, harness, refusal } from './support/harness';

const ADA = { _id: 'ada', email: 'ada@example.test' };
const BOB = { _id: 'bob', email: 'bob@example.test' };

describeEngines('sessions that end', (engine) => {
  /** Ada and Bob with a session each (Ada two), on deps whose seams record what they report. */
  async function signedIn() {
    const t = await harness(engine);
    await t.db.collection('users').insertMany([{ ...ADA }, { ...BOB }]);
    const ended: EndedSessions[] = [];
    const deps = createAuthDeps(t.db, t.options, { sessionsEnded: (report) => ended.push(report) });
    const phone = await createSession(deps, ADA);
    const laptop = await createSession(deps, ADA);
    const bob = await createSession(deps, BOB);
    return { t, deps, ended, phone, laptop, bob };
  }

  /** The session as a request finds it (what the store asks `checkSessions` about). */
  async function found(deps: AuthDeps, token: string) {
    const session = await findSession(deps, token);
    if (session === null) throw new Error('expected a live session');
    return session;
  }

  it('names a session by the _id of its stored document, never by its token or hash', async () => {
    const { t, deps, phone } = await signedIn();
    const session = await found(deps, phone.token);
    const stored = (await t.all('svc-sessions')).find(({ _id }) => String(_id) === session.id);
    expect(stored).toMatchObject({ userId: 'ada', hash: expect.any(String) });
    expect(session.id).not.toBe(phone.token);
    expect(session.id).not.toBe(stored?.hash);
  });

  it('logout reports the one session it revoked, by id', async () => {
    const { deps, ended, phone, laptop } = await signedIn();
    const { id } = await found(deps, phone.token);
    await logout(deps, { headers: { authorization: `Bearer ${phone.token}` } });
    expect(ended).toEqual([{ sessionIds: [id] }]);
    expect(await findSession(deps, laptop.token)).not.toBeNull();
  });

  it("logoutEverywhere revokes every session of the request's user and reports the user; others keep theirs", async () => {
    const { deps, ended, phone, laptop, bob } = await signedIn();
    expect(await logoutEverywhere(deps, { headers: { cookie: `store_session=${laptop.token}` } })).toBe(2);
    expect(ended).toEqual([{ userId: 'ada' }]);
    expect(await findSession(deps, phone.token)).toBeNull();
    expect(await findSession(deps, laptop.token)).toBeNull();
    expect(await findSession(deps, bob.token)).not.toBeNull();
  });

  it('logoutEverywhere refuses a request without a live session with 401 unauthorized, ending nothing', async () => {
    const { t, deps, ended } = await signedIn();
    const before = await t.snapshot();
    expect(await refusal(logoutEverywhere(deps, { headers: {} }))).toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
    expect(ended).toEqual([]);
    expect(await t.snapshot()).toEqual(before);
  });

  it('revokeUserSessions reports the user', async () => {
    const { deps, ended } = await signedIn();
    expect(await revokeUserSessions(deps, 'ada')).toBe(2);
    expect(ended).toEqual([{ userId: 'ada' }]);
  });

  it("finding a blocked user's session revokes all of them and reports the user", async () => {
    const { t, deps, ended, phone } = await signedIn();
    await t.db.collection('users').updateOne({ _id: 'ada' }, { $set: { blocked: true } });
    expect(await findSession(deps, phone.token)).toBeNull();
    expect(ended).toEqual([{ userId: 'ada' }]);
    expect(await t.db.collection('svc-sessions').countDocuments({ userId: 'ada' })).toBe(0);
  });

  it('checkSessions tells, for each session, whether it is still live', async () => {
    const { t, deps, phone, laptop, bob } = await signedIn();
    const carol = await createSession(deps, { _id: 'carol' });
    await t.db.collection('users').insertOne({ _id: 'carol' });
    const dave = await createSession(deps, { _id: 'dave' });
    await t.db.collection('users').insertOne({ _id: 'dave' });
    const sessions = await Promise.all(
      [phone, laptop, bob, carol, dave].map(({ token }) => found(deps, token)),
    );
    const stranger = { id: 'x', user: { _id: 'ada' }, expiresAt: new Date(Date.now() + 60_000) };
    expect(await checkSessions(deps, [...sessions, stranger])).toEqual([true, true, true, true, true, false]);

    // Revoked by another process (phone), blocked (Bob) and deleted (Carol) without the store.
    const phoneStored = (await t.all('svc-sessions')).find(({ _id }) => String(_id) === sessions[0]?.id);
    await t.db.collection('svc-sessions').deleteOne({ _id: phoneStored?._id });
    await t.db.collection('users').updateOne({ _id: 'bob' }, { $set: { blocked: true } });
    await t.db.collection('users').deleteOne({ _id: 'carol' });
    expect(await checkSessions(deps, sessions)).toEqual([false, true, false, false, true]);

    t.advance(31 * 86_400_000);
    expect(await checkSessions(deps, sessions)).toEqual([false, false, false, false, false]);
  });

  it('checkSessions asks two queries however many sessions: the sessions, then their users, by _id', async () => {
    const { t, deps } = await signedIn();
    const users = Array.from({ length: 50 }, (_, i) => ({ _id: `u${i}` }));
    await t.db.collection('users').insertMany(users);
    const created = await Promise.all(users.map((user) => createSession(deps, user)));
    const sessions = await Promise.all(created.map(({ token }) => found(deps, token)));
    const { db, calls } = countedDb(t.db);
    const counted = createAuthDeps(db, t.options);
    expect(await checkSessions(counted, sessions)).toEqual(sessions.map(() => true));
    expect(calls).toEqual([
      { collection: 'svc-sessions', method: 'find', keys: ['_id'] },
      { collection: 'users', method: 'find', keys: ['_id'] },
    ]);
  });
});
