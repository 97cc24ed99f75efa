import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
import { consumeLink, requestCode, requestLink, verifyCode } from '../src/index';
import { harness, refusal } from './support/harness';

const ADA = 'ada@example.test';

describeEngines('abuse resistance', (engine) => {
  it.each([
    [
      'requestCode',
      (t: Awaited<ReturnType<typeof harness>>, email: string) => requestCode(t.deps, { email }),
    ],
    [
      'requestLink',
      (t: Awaited<ReturnType<typeof harness>>, email: string) => requestLink(t.deps, { email }),
    ],
  ])('%s gives the same answer for known and unknown addresses', async (_name, ask) => {
    const t = await harness(engine);
    await t.db.collection('users').insertOne({ email: ADA });
    const known = await ask(t, ADA);
    const unknown = await ask(t, 'nobody@example.test');
    expect(unknown).toEqual(known);
    expect(t.mailer.messages.map((m) => m.to)).toEqual([ADA, 'nobody@example.test']);
  });

  it('creates a user on verification, never on request', async () => {
    const t = await harness(engine);
    await requestCode(t.deps, { email: ADA });
    await requestLink(t.deps, { email: ADA });
    expect(await t.all('users')).toEqual([]);
    await verifyCode(t.deps, { email: ADA, code: t.mailer.lastCodeTo(ADA) });
    expect(await t.all('users')).toMatchObject([{ email: ADA, createdAt: expect.any(Date) }]);
    await consumeLink(t.deps, { token: t.mailer.lastLinkTokenTo(ADA) });
    expect(await t.all('users')).toHaveLength(1);
  });

  it('signs in an existing user without touching the user document', async () => {
    const t = await harness(engine);
    await t.db.collection('users').insertOne({ email: ADA, name: 'Ada' });
    const before = await t.all('users');
    await requestCode(t.deps, { email: ADA });
    const session = await verifyCode(t.deps, { email: ADA, code: t.mailer.lastCodeTo(ADA) });
    expect(session.user).toEqual(before[0]);
    expect(await t.all('users')).toEqual(before);
  });

  it('keeps `max` active secrets per address: a new one retires the oldest, which then answers 410', async () => {
    const t = await harness(engine, { magicLink: { max: 2 } });
    const tokens: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      await requestLink(t.deps, { email: ADA });
      tokens.push(t.mailer.lastLinkTokenTo(ADA));
      t.advance(1);
    }
    expect((await t.all('svc-magic-links')).map((r) => r.state)).toEqual(['retired', 'active', 'active']);
    expect(await refusal(consumeLink(t.deps, { token: tokens[0] }))).toMatchObject({
      status: 410,
      code: 'token_expired',
    });
    await expect(consumeLink(t.deps, { token: tokens[2] })).resolves.toMatchObject({ user: { email: ADA } });
    await expect(consumeLink(t.deps, { token: tokens[1] })).resolves.toMatchObject({ user: { email: ADA } });
  });

  it('never lets strangers lock an address out: the newest code always works', async () => {
    const t = await harness(engine);
    for (let i = 0; i < 10; i += 1) {
      await requestCode(t.deps, { email: ADA });
      t.advance(1);
    }
    expect((await t.all('svc-magic-codes')).filter((r) => r.state === 'active')).toHaveLength(3);
    await expect(verifyCode(t.deps, { email: ADA, code: t.mailer.lastCodeTo(ADA) })).resolves.toMatchObject({
      user: { email: ADA },
    });
  });

  it('builds links from baseUrl only: request data cannot change them', async () => {
    const t = await harness(engine, { baseUrl: 'https://shop.example' });
    await requestLink(t.deps, {
      email: ADA,
      request: { ip: 'evil.example', userAgent: 'Host: evil.example' },
    });
    expect(t.mailer.lastMessageTo(ADA)?.link).toMatch(/^https:\/\/shop\.example\/auth\/magic-link\//);
  });

  it.each([
    ['a string without @', 'not-an-email'],
    ['an empty string', ''],
    ['an operator object', { $gt: '' }],
    ['nothing', undefined],
  ])('rejects %s as email with 400 invalid_email, sending nothing', async (_label, email) => {
    const t = await harness(engine);
    expect(await refusal(requestCode(t.deps, { email }))).toMatchObject({
      status: 400,
      code: 'invalid_email',
    });
    expect(t.mailer.messages).toEqual([]);
    expect(await t.all('svc-rate-limits')).toEqual([]);
  });
});
