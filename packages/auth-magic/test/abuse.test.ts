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

  it('survives the lock-out of the security sweep: 5 code requests and 5 junk guesses by strangers', async () => {
    const t = await harness(engine, { rateLimit: {} }); // the default rate limits
    const stranger = (i: number) => ({ ip: `203.0.113.${i}` });
    for (let i = 0; i < 5; i += 1) {
      await requestCode(t.deps, { email: ADA, request: stranger(i) });
      t.advance(1_000);
    }
    for (let i = 0; i < 5; i += 1) {
      const junk = verifyCode(t.deps, { email: ADA, code: '000000', request: stranger(9) });
      expect(await refusal(junk)).toMatchObject({ status: 401, code: 'invalid_code' });
    }
    // The stranger's sixth guess is refused without being charged to the codes.
    expect(
      await refusal(verifyCode(t.deps, { email: ADA, code: '000000', request: stranger(9) })),
    ).toMatchObject({
      status: 429,
    });
    const owner = { ip: '198.51.100.1' };
    // The owner asks for a code: nothing new is sent, the newest one in the mailbox is extended...
    t.advance(9 * 60_000);
    await expect(requestCode(t.deps, { email: ADA, request: owner })).resolves.toMatchObject({ sent: false });
    // ...and still works after its original 10 minutes; a link is sent as well.
    t.advance(5 * 60_000);
    await expect(requestLink(t.deps, { email: ADA, request: owner })).resolves.toMatchObject({ sent: true });
    await expect(
      verifyCode(t.deps, { email: ADA, code: t.mailer.lastCodeTo(ADA), request: owner }),
    ).resolves.toMatchObject({ user: { email: ADA } });
    await expect(consumeLink(t.deps, { token: t.mailer.lastLinkTokenTo(ADA) })).resolves.toMatchObject({
      user: { email: ADA },
    });
    expect(t.mailer.messages).toHaveLength(6);
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
