import { describeEngines } from '@store/test-kit';
import { describe, expect, it } from 'vitest';
import { getSession, requestCode, verifyCode } from '../src/index';
import { createTestAuth } from '../src/testing';
import { harness, refusal } from './support/harness';

const ADA = 'ada@example.test';
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describeEngines('magic code', (engine) => {
  it('sends a 6-digit code and signs in with it; the session is accepted afterwards', async () => {
    const t = await harness(engine);
    const sent = await requestCode(t.deps, { email: '  Ada@Example.TEST ', request: { ip: '198.51.100.1' } });
    expect(sent).toEqual({ sent: true, expiresAt: expect.any(Date) });
    const [record] = await t.all('svc-magic-codes');
    expect(record).toMatchObject({ expiresAt: sent.expiresAt });
    expect(sent.expiresAt.getTime() - (record as { createdAt: Date }).createdAt.getTime()).toBe(600_000);
    const code = t.mailer.lastCodeTo(ADA);
    expect(code).toMatch(/^\d{6}$/);
    const session = await verifyCode(t.deps, { email: ADA, code });
    expect(session).toMatchObject({ token: expect.stringMatching(/^[\w-]{43}$/), user: { email: ADA } });
    const current = await getSession(t.deps, { headers: { authorization: `Bearer ${session.token}` } });
    expect(current.user._id).toEqual(session.user._id);
  });

  it('stores only a keyed hash: the code appears nowhere in the database', async () => {
    const t = await harness(engine);
    await requestCode(t.deps, { email: ADA });
    const code = t.mailer.lastCodeTo(ADA);
    const [record, ...rest] = await t.all('svc-magic-codes');
    expect(rest).toHaveLength(0);
    expect(record).toMatchObject({
      email: ADA,
      state: 'active',
      attempts: 0,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(record)).not.toContain(code);
  });

  it('answers a wrong code with 401 invalid_code and counts one attempt, nothing else', async () => {
    const t = await harness(engine);
    await requestCode(t.deps, { email: ADA });
    const before = await t.snapshot();
    const error = await refusal(verifyCode(t.deps, { email: ADA, code: wrong(t.mailer.lastCodeTo(ADA)) }));
    expect(error).toMatchObject({ status: 401, code: 'invalid_code' });
    const after = await t.snapshot();
    expect(after['svc-magic-codes']).toEqual(before['svc-magic-codes']?.map((r) => ({ ...r, attempts: 1 })));
    expect({ ...after, 'svc-magic-codes': [] }).toEqual({ ...before, 'svc-magic-codes': [] });
  });

  it('kills the code after maxGuesses misses from all clients: even the right code is then 401', async () => {
    const t = await harness(engine, { magicCode: { maxAttempts: 2, maxGuesses: 4 } });
    await requestCode(t.deps, { email: ADA });
    const code = t.mailer.lastCodeTo(ADA);
    for (const ip of ['192.0.2.1', '192.0.2.1', '192.0.2.2', '192.0.2.2']) {
      await refusal(verifyCode(t.deps, { email: ADA, code: wrong(code), request: { ip } }));
    }
    const before = await t.snapshot();
    expect(before['svc-magic-codes']).toMatchObject([{ state: 'exhausted', attempts: 4 }]);
    const owner = verifyCode(t.deps, { email: ADA, code, request: { ip: '198.51.100.9' } });
    expect(await refusal(owner)).toMatchObject({ status: 401, code: 'invalid_code' });
    expect(await t.snapshot()).toEqual(before);
  });

  it('refuses a client past maxAttempts misses for an address with 429, charging the code nothing more', async () => {
    const t = await harness(engine, { magicCode: { maxAttempts: 3 } });
    await requestCode(t.deps, { email: ADA });
    const code = t.mailer.lastCodeTo(ADA);
    const request = { ip: '203.0.113.7' };
    for (let i = 0; i < 3; i += 1) {
      expect(await refusal(verifyCode(t.deps, { email: ADA, code: wrong(code), request }))).toMatchObject({
        status: 401,
      });
    }
    const error = await refusal(verifyCode(t.deps, { email: ADA, code, request }));
    expect(error).toMatchObject({
      status: 429,
      code: 'too_many_requests',
      headers: { 'Retry-After': '600' },
    });
    expect(await t.all('svc-magic-codes')).toMatchObject([{ state: 'active', attempts: 3 }]);
    await expect(
      verifyCode(t.deps, { email: ADA, code, request: { ip: '198.51.100.20' } }),
    ).resolves.toMatchObject({ user: { email: ADA } });
  });

  it('answers an expired code with 410 token_expired and changes nothing', async () => {
    const t = await harness(engine);
    await requestCode(t.deps, { email: ADA });
    t.advance(10 * 60_000 + 1);
    const before = await t.snapshot();
    const error = await refusal(verifyCode(t.deps, { email: ADA, code: t.mailer.lastCodeTo(ADA) }));
    expect(error).toMatchObject({ status: 410, code: 'token_expired' });
    expect(await t.snapshot()).toEqual(before);
  });

  it('answers a reused code with 409 already_used and changes nothing', async () => {
    const t = await harness(engine);
    await requestCode(t.deps, { email: ADA });
    const code = t.mailer.lastCodeTo(ADA);
    await verifyCode(t.deps, { email: ADA, code });
    const before = await t.snapshot();
    expect(await refusal(verifyCode(t.deps, { email: ADA, code }))).toMatchObject({
      status: 409,
      code: 'already_used',
    });
    expect(await t.snapshot()).toEqual(before);
  });

  it.each([
    ['an address that never asked', 'bob@example.test', '123456'],
    ['a code of the wrong length', ADA, '12345'],
    ['a non-numeric code', ADA, 'abcdef'],
    ['a number instead of a string', ADA, 123456],
  ])('answers %s with 401 invalid_code', async (_label, email, code) => {
    const t = await harness(engine);
    await requestCode(t.deps, { email: ADA });
    const sessions = await t.all('svc-sessions');
    expect(await refusal(verifyCode(t.deps, { email, code }))).toMatchObject({
      status: 401,
      code: 'invalid_code',
    });
    expect(await t.all('svc-sessions')).toEqual(sessions);
    expect(await t.all('users')).toEqual([]);
  });

  it('does not accept a code for another address than the one it was sent to', async () => {
    const t = await harness(engine);
    await requestCode(t.deps, { email: ADA });
    const error = await refusal(
      verifyCode(t.deps, { email: 'eve@example.test', code: t.mailer.lastCodeTo(ADA) }),
    );
    expect(error).toMatchObject({ status: 401, code: 'invalid_code' });
    expect(await t.all('svc-magic-codes')).toMatchObject([{ state: 'active', attempts: 0 }]);
  });

  it('lets exactly one of two parallel verifications of one code succeed', async () => {
    const t = await harness(engine);
    await requestCode(t.deps, { email: ADA });
    const code = t.mailer.lastCodeTo(ADA);
    const outcomes = await Promise.allSettled([
      verifyCode(t.deps, { email: ADA, code }),
      verifyCode(t.deps, { email: ADA, code }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [rejected] = outcomes.filter((o) => o.status === 'rejected');
    expect(rejected?.reason).toMatchObject({ status: 409, code: 'already_used' });
    expect(await t.all('svc-sessions')).toHaveLength(1);
    expect(await t.all('users')).toHaveLength(1);
  });
});

describe('verifyCode input', () => {
  it('rejects a malformed address with 400 invalid_email before touching anything', async () => {
    const calls: string[] = [];
    const db = {
      collection(name: string): never {
        calls.push(name);
        throw new Error('no database access expected');
      },
    };
    const { deps } = createTestAuth(db);
    expect(await refusal(verifyCode(deps, { email: 'not-an-address', code: '123456' }))).toMatchObject({
      status: 400,
      code: 'invalid_email',
    });
    expect(calls).toEqual([]);
  });
});
