import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
import {
  createSession,
  findSession,
  generateToken,
  getSession,
  logout,
  requestCode,
  verifyCode,
} from '../src/index';
import { harness, refusal } from './support/harness';

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
});
