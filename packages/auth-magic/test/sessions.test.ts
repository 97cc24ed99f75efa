import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
import {
  createSession,
  findSession,
  generateToken,
  getSession,
  logout,
  requestCode,
  revokeUserSessions,
  verifyCode,
} from '../src/index';
import { countedDb, harness, refusal } from './support/harness';

const ADA = 'ada@example.test';

describeEngines('sessions', (engine) => {
  async function signedIn(options = {}) {
    const t = await harness(engine, options);
    await requestCode(t.deps, { email: ADA });
    const session = await verifyCode(t.deps, { email: ADA, code: t.mailer.lastCodeTo(ADA) });
    return { ...t, session };
  }

  it('lasts 30 days by default and is stored only as a hash', async () => {
    const t = await signedIn();
    const stored = await t.all('svc-sessions');
    expect(stored).toMatchObject([
      {
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        userId: t.session.user._id,
        expiresAt: t.session.expiresAt,
      },
    ]);
    const { createdAt } = stored[0] as { createdAt: Date };
    expect(t.session.expiresAt.getTime() - createdAt.getTime()).toBe(30 * 86_400_000);
    expect(JSON.stringify(stored)).not.toContain(t.session.token);
  });

  it('is accepted from the Bearer header and from the store_session cookie', async () => {
    const t = await signedIn();
    for (const headers of [
      { authorization: `Bearer ${t.session.token}` },
      { cookie: `store_session=${t.session.token}` },
    ]) {
      expect(await getSession(t.deps, { headers })).toEqual({
        user: t.session.user,
        expiresAt: t.session.expiresAt,
      });
    }
  });

  it.each([
    ['no credentials', {}],
    ['an unknown token', { authorization: `Bearer ${generateToken()}` }],
    ['a malformed token', { authorization: 'Bearer abc' }],
  ])('answers %s with 401 unauthorized', async (_label, headers) => {
    const t = await signedIn();
    expect(await refusal(getSession(t.deps, { headers }))).toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
  });

  it('expires after sessionTtl', async () => {
    const t = await signedIn({ sessionTtl: '1h' });
    t.advance(3_600_000);
    expect(await findSession(t.deps, t.session.token)).toBeNull();
  });

  it('logout revokes at once and is idempotent', async () => {
    const t = await signedIn();
    const headers = { authorization: `Bearer ${t.session.token}` };
    await logout(t.deps, { headers });
    expect(await t.all('svc-sessions')).toEqual([]);
    expect(await refusal(getSession(t.deps, { headers }))).toMatchObject({ status: 401 });
    await expect(logout(t.deps, { headers })).resolves.toBeUndefined();
    await expect(logout(t.deps, { headers: {} })).resolves.toBeUndefined();
  });

  it('logout of one session leaves the user’s other sessions alone', async () => {
    const t = await signedIn();
    const other = await createSession(t.deps, t.session.user);
    await logout(t.deps, { headers: { cookie: `store_session=${t.session.token}` } });
    expect(await findSession(t.deps, other.token)).toMatchObject({ user: t.session.user });
  });

  it('ends when the user is deleted', async () => {
    const t = await signedIn();
    await t.db.collection('users').deleteOne({ _id: t.session.user._id });
    expect(await findSession(t.deps, t.session.token)).toBeNull();
  });

  it("revokeUserSessions ends every session of that user at once, and no other user's", async () => {
    const t = await signedIn();
    const second = await createSession(t.deps, t.session.user);
    const bob = await createSession(t.deps, { _id: 'bob', email: 'bob@example.test' });
    await t.db.collection('users').insertOne({ _id: 'bob', email: 'bob@example.test' });
    expect(await revokeUserSessions(t.deps, t.session.user._id)).toBe(2);
    expect(await findSession(t.deps, t.session.token)).toBeNull();
    expect(await findSession(t.deps, second.token)).toBeNull();
    expect(await findSession(t.deps, bob.token)).toMatchObject({ user: { _id: 'bob' } });
  });

  it('refuses the sessions of a blocked user (blocked: true by default) and revokes them all', async () => {
    const t = await signedIn();
    await createSession(t.deps, t.session.user);
    await t.db.collection('users').updateOne({ _id: t.session.user._id }, { $set: { blocked: true } });
    expect(await findSession(t.deps, t.session.token)).toBeNull();
    expect(await t.all('svc-sessions')).toEqual([]);
    // Unblocking does not bring a revoked session back.
    await t.db.collection('users').updateOne({ _id: t.session.user._id }, { $set: { blocked: false } });
    expect(await findSession(t.deps, t.session.token)).toBeNull();
  });

  it('refuses sign-in of a blocked user with 403 account_blocked, before the code is used', async () => {
    const t = await harness(engine, { isBlocked: (user) => user.status === 'banned' });
    await t.db.collection('users').insertOne({ email: ADA, status: 'banned' });
    await requestCode(t.deps, { email: ADA });
    const code = t.mailer.lastCodeTo(ADA);
    expect(await refusal(verifyCode(t.deps, { email: ADA, code }))).toMatchObject({
      status: 403,
      code: 'account_blocked',
    });
    expect(await t.all('svc-magic-codes')).toMatchObject([{ state: 'active' }]);
    await t.db.collection('users').updateOne({ email: ADA }, { $set: { status: 'ok' } });
    await expect(verifyCode(t.deps, { email: ADA, code })).resolves.toMatchObject({ user: { email: ADA } });
  });

  it('looks a session up by one equality on its indexed hash, however many sessions exist', async () => {
    const t = await signedIn();
    const { db, calls } = countedDb(t.db);
    const counted = { db, options: t.options };
    const lookups = async () => {
      calls.length = 0;
      expect(await findSession(counted, t.session.token)).not.toBeNull();
      return [...calls];
    };
    const few = await lookups();
    const others = Array.from({ length: 1000 }, () => ({
      hash: generateToken(),
      userId: 'someone',
      expiresAt: new Date(Date.now() + 3_600_000),
    }));
    for (const other of others) await t.db.collection('svc-sessions').insertOne(other);
    expect(await lookups()).toEqual(few);
    expect(few).toEqual([
      { collection: 'svc-sessions', method: 'findOne', keys: ['hash'] },
      { collection: 'users', method: 'findOne', keys: ['_id'] },
    ]);
    const indexes = await t.db.collection('svc-sessions').listIndexes().toArray();
    expect(indexes).toContainEqual(expect.objectContaining({ key: { hash: 1 }, unique: true }));
  });
});
