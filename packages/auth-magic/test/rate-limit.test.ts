import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
import { createAuthDeps, requestCode, requestLink, verifyCode } from '../src/index';
import { harness, refusal } from './support/harness';

const ADA = 'ada@example.test';

describeEngines('send limits', (engine) => {
  it('sends 5 codes per address an hour by default; then nothing is sent and the newest live code is extended', async () => {
    const t = await harness(engine, { rateLimit: {} });
    for (let i = 0; i < 5; i += 1)
      await requestCode(t.deps, { email: ADA, request: { ip: `198.51.100.${i}` } });
    t.advance(60_000);
    const sixth = await requestCode(t.deps, {
      email: ` ${ADA.toUpperCase()}`,
      request: { ip: '192.0.2.99' },
    });
    expect(sixth).toEqual({ sent: false, expiresAt: expect.any(Date) });
    expect(t.mailer.messages).toHaveLength(5);
    const codes = await t.all('svc-magic-codes');
    expect(codes.filter((code) => code.state === 'active')).toHaveLength(3);
    expect(codes.map((code) => code.expiresAt)).toContainEqual(sixth.expiresAt);
    // Still live 9 minutes later, when it would have expired without the extension.
    t.advance(9 * 60_000 + 1);
    await expect(verifyCode(t.deps, { email: ADA, code: t.mailer.lastCodeTo(ADA) })).resolves.toMatchObject({
      user: { email: ADA },
    });
  });

  it('answers 429 with Retry-After past the address quota when no live secret is left', async () => {
    const t = await harness(engine, { rateLimit: { perAddress: { max: 2, window: '1 hour' } } });
    await requestCode(t.deps, { email: ADA });
    t.advance(5 * 60_000);
    await requestCode(t.deps, { email: ADA });
    t.advance(11 * 60_000); // both codes expired
    const before = await t.snapshot();
    const error = await refusal(requestCode(t.deps, { email: ADA, request: { ip: '192.0.2.99' } }));
    expect(error).toMatchObject({ status: 429, code: 'too_many_requests' });
    expect(error.headers).toEqual({ 'Retry-After': String(3600 - 16 * 60) }); // the first send leaves the window
    expect(t.mailer.messages).toHaveLength(2);
    expect(await t.snapshot()).toEqual(before);
    await expect(requestCode(t.deps, { email: 'bob@example.test' })).resolves.toMatchObject({ sent: true });
  });

  it('keeps separate mail quotas for codes and links, so code requests cannot block links', async () => {
    const t = await harness(engine, { rateLimit: {} });
    for (let i = 0; i < 6; i += 1) await requestCode(t.deps, { email: ADA });
    await expect(requestLink(t.deps, { email: ADA })).resolves.toEqual({
      sent: true,
      expiresAt: expect.any(Date),
    });
    expect(t.mailer.messages).toHaveLength(6);
  });

  it('refuses a poll request past the link quota (its poll token cannot be extended)', async () => {
    const t = await harness(engine, { rateLimit: { perAddress: { max: 1, window: '1 hour' } } });
    await requestLink(t.deps, { email: ADA });
    expect(await refusal(requestLink(t.deps, { email: ADA, poll: true }))).toMatchObject({ status: 429 });
    await expect(requestLink(t.deps, { email: ADA })).resolves.toMatchObject({ sent: false });
  });

  it('allows 30 sends per IP a minute by default, then 429; one minute after the first it allows again', async () => {
    const t = await harness(engine, { rateLimit: {} });
    const ip = '203.0.113.5';
    for (let i = 0; i < 30; i += 1)
      await requestCode(t.deps, { email: `user${i}@example.test`, request: { ip } });
    const error = await refusal(requestCode(t.deps, { email: 'late@example.test', request: { ip } }));
    expect(error).toMatchObject({ status: 429, code: 'too_many_requests' });
    t.advance(15_000);
    expect(await refusal(requestCode(t.deps, { email: 'late@example.test', request: { ip } }))).toMatchObject(
      {
        headers: { 'Retry-After': '45' },
      },
    );
    t.advance(45_000);
    await expect(requestCode(t.deps, { email: 'late@example.test', request: { ip } })).resolves.toMatchObject(
      {
        sent: true,
      },
    );
  });

  it('slides: never more than the limit within any window, a window boundary included', async () => {
    const t = await harness(engine, { rateLimit: { perIp: { max: 30, window: '1 minute' } } });
    const ip = '203.0.113.6';
    const send = (i: number) => requestCode(t.deps, { email: `u${i}@example.test`, request: { ip } });
    t.advance(59_000); // late in a fixed minute: a fixed window would start afresh in one second
    for (let i = 0; i < 30; i += 1) await send(i);
    t.advance(2_000); // past the fixed boundary, inside the sliding minute
    expect(await refusal(send(30))).toMatchObject({ status: 429, headers: { 'Retry-After': '58' } });
    t.advance(58_000);
    await expect(send(31)).resolves.toMatchObject({ sent: true });
    expect(t.mailer.messages).toHaveLength(31);
  });

  it.each([
    ['IPv6 addresses of one /64', '2001:db8:1:2::1', '2001:db8:1:2:ffff:abcd:1:2', true],
    ['IPv6 addresses of two /64s', '2001:db8:1:2::1', '2001:db8:1:3::1', false],
    ['an IPv4-mapped IPv6 address and its IPv4 address', '::ffff:192.0.2.7', '192.0.2.7', true],
    ['two IPv4 addresses', '192.0.2.7', '192.0.2.8', false],
  ])('limits %s as one client: %s, %s', async (_label, first, second, same) => {
    const t = await harness(engine, { rateLimit: { perIp: { max: 1, window: '1 minute' } } });
    await requestCode(t.deps, { email: 'a@example.test', request: { ip: first } });
    const next = requestCode(t.deps, { email: 'b@example.test', request: { ip: second } });
    if (same) expect(await refusal(next)).toMatchObject({ status: 429 });
    else await expect(next).resolves.toMatchObject({ sent: true });
  });

  it('shares counters between processes through the database', async () => {
    const t = await harness(engine, { rateLimit: { perAddress: { max: 2, window: '1 hour' } } });
    const secondProcess = createAuthDeps(t.db, t.options);
    await requestCode(t.deps, { email: ADA });
    await requestCode(secondProcess, { email: ADA });
    await expect(requestCode(secondProcess, { email: ADA })).resolves.toMatchObject({ sent: false });
    await expect(requestCode(t.deps, { email: ADA })).resolves.toMatchObject({ sent: false });
    expect(t.mailer.messages).toHaveLength(2);
  });

  it('counts parallel requests atomically', async () => {
    const t = await harness(engine, { rateLimit: { perIp: { max: 3, window: '1 hour' } } });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        requestCode(t.deps, { email: `u${i}@x.test`, request: { ip: '192.0.2.1' } }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect(t.mailer.messages).toHaveLength(3);
  });

  it('stores counters under keyed hashes, never the address or IP', async () => {
    const t = await harness(engine, { rateLimit: {} });
    await requestCode(t.deps, { email: ADA, request: { ip: '198.51.100.7' } });
    const counters = await t.all('svc-rate-limits');
    expect(counters).toHaveLength(2);
    expect(JSON.stringify(counters)).not.toMatch(/ada@|198\.51/);
    expect(counters).toMatchObject([
      { hits: [expect.any(Number)], expiresAt: expect.any(Date) },
      { hits: [expect.any(Number)], expiresAt: expect.any(Date) },
    ]);
  });
});
