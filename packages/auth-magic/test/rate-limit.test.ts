import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
import { createAuthDeps, requestCode, requestLink } from '../src/index';
import { harness, refusal } from './support/harness';

const ADA = 'ada@example.test';

describeEngines('send limits', (engine) => {
  it('allows 5 sends per address an hour by default, then 429 with Retry-After, sending and storing nothing', async () => {
    const t = await harness(engine, { rateLimit: {} });
    for (let i = 0; i < 5; i += 1)
      await requestCode(t.deps, { email: ADA, request: { ip: `198.51.100.${i}` } });
    const before = await t.snapshot();
    const error = await refusal(
      requestLink(t.deps, { email: ` ${ADA.toUpperCase()}`, request: { ip: '192.0.2.99' } }),
    );
    expect(error).toMatchObject({ status: 429, code: 'too_many_requests' });
    expect(error.headers).toEqual({ 'Retry-After': '3600' }); // the window started with the test
    expect(t.mailer.messages).toHaveLength(5);
    expect(await t.snapshot()).toEqual(before);
    await expect(
      requestCode(t.deps, { email: 'bob@example.test', request: { ip: '192.0.2.99' } }),
    ).resolves.toMatchObject({ sent: true });
  });

  it('allows 30 sends per IP a minute by default, then 429; the next window starts afresh', async () => {
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
      { sent: true },
    );
  });

  it('shares counters between processes through the database', async () => {
    const t = await harness(engine, { rateLimit: { perAddress: { max: 2, window: '1 hour' } } });
    const secondProcess = createAuthDeps(t.db, t.options);
    await requestCode(t.deps, { email: ADA });
    await requestCode(secondProcess, { email: ADA });
    expect(await refusal(requestCode(secondProcess, { email: ADA }))).toMatchObject({ status: 429 });
    expect(await refusal(requestCode(t.deps, { email: ADA }))).toMatchObject({ status: 429 });
  });

  it('counts parallel requests atomically', async () => {
    const t = await harness(engine, { rateLimit: { perAddress: { max: 3, window: '1 hour' } } });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => requestCode(t.deps, { email: ADA })),
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
      { count: 1, expiresAt: expect.any(Date) },
      { count: 1, expiresAt: expect.any(Date) },
    ]);
  });
});
