import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
import { approveLink, consumeLink, generateToken, inspectLink, requestLink } from '../src/index';
import { harness, refusal } from './support/harness';

const ADA = 'ada@example.test';

describeEngines('magic link', (engine) => {
  it('mails <baseUrl>/auth/magic-link/<token> and signs in the browser that opens it', async () => {
    const t = await harness(engine, { baseUrl: 'https://shop.example/api/' });
    const sent = await requestLink(t.deps, { email: ADA, request: { ip: '198.51.100.1', userAgent: 'UA' } });
    expect(sent).toEqual({ sent: true, expiresAt: expect.any(Date) });
    const message = t.mailer.lastMessageTo(ADA);
    expect(message?.text).toMatch(/^https:\/\/shop\.example\/api\/auth\/magic-link\/[\w-]{43}$/);
    expect(message).toMatchObject({ subject: 'Your sign-in link', from: 'no-reply@shop.example' });
    const session = await consumeLink(t.deps, { token: t.mailer.lastLinkTokenTo(ADA) });
    expect(session).toMatchObject({ token: expect.stringMatching(/^[\w-]{43}$/), user: { email: ADA } });
    expect(await t.all('svc-magic-links')).toMatchObject([{ state: 'used', poll: false }]);
  });

  it('inspects a link without changing anything', async () => {
    const t = await harness(engine);
    await requestLink(t.deps, { email: ADA, request: { ip: '198.51.100.1', userAgent: 'Mozilla/5.0' } });
    const before = await t.snapshot();
    const seen = await inspectLink(t.deps, { token: t.mailer.lastLinkTokenTo(ADA) });
    expect(seen).toMatchObject({
      status: 'sign_in',
      ip: '198.51.100.1',
      userAgent: 'Mozilla/5.0',
      requestedAt: expect.any(Date),
    });
    expect(await t.snapshot()).toEqual(before);
  });

  it.each([
    ['consumeLink', consumeLink],
    ['inspectLink', inspectLink],
    ['approveLink', approveLink],
  ] as const)('%s answers an unknown or malformed token with 404 token_not_found', async (_name, flow) => {
    const t = await harness(engine);
    await requestLink(t.deps, { email: ADA });
    const before = await t.snapshot();
    for (const token of [generateToken(), 'short', '../../etc', { $ne: null }]) {
      expect(await refusal(flow(t.deps, { token }))).toMatchObject({ status: 404, code: 'token_not_found' });
    }
    expect(await t.snapshot()).toEqual(before);
  });

  it('answers an expired link with 410 token_expired and changes nothing', async () => {
    const t = await harness(engine);
    await requestLink(t.deps, { email: ADA });
    t.advance(24 * 3_600_000 + 1);
    const before = await t.snapshot();
    const token = t.mailer.lastLinkTokenTo(ADA);
    expect(await refusal(consumeLink(t.deps, { token }))).toMatchObject({
      status: 410,
      code: 'token_expired',
    });
    expect(await refusal(inspectLink(t.deps, { token }))).toMatchObject({
      status: 410,
      code: 'token_expired',
    });
    expect(await t.snapshot()).toEqual(before);
  });

  it('answers a reused link with 409 already_used and changes nothing', async () => {
    const t = await harness(engine);
    await requestLink(t.deps, { email: ADA });
    const token = t.mailer.lastLinkTokenTo(ADA);
    await consumeLink(t.deps, { token });
    const before = await t.snapshot();
    expect(await refusal(consumeLink(t.deps, { token }))).toMatchObject({
      status: 409,
      code: 'already_used',
    });
    expect(await t.snapshot()).toEqual(before);
  });

  it('lets exactly one of two parallel openings of one link succeed', async () => {
    const t = await harness(engine);
    await requestLink(t.deps, { email: ADA });
    const token = t.mailer.lastLinkTokenTo(ADA);
    const outcomes = await Promise.allSettled([
      consumeLink(t.deps, { token }),
      consumeLink(t.deps, { token }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')?.reason).toMatchObject({
      status: 409,
      code: 'already_used',
    });
    expect(await t.all('svc-sessions')).toHaveLength(1);
  });

  it('answers 404 user_not_found when the user is missing and createUser is false, changing nothing', async () => {
    const t = await harness(engine, { createUser: false });
    await requestLink(t.deps, { email: ADA });
    const before = await t.snapshot();
    const error = await refusal(consumeLink(t.deps, { token: t.mailer.lastLinkTokenTo(ADA) }));
    expect(error).toMatchObject({ status: 404, code: 'user_not_found' });
    expect(await t.snapshot()).toEqual(before);
  });

  it('rejects a non-boolean poll with 400 invalid_body', async () => {
    const t = await harness(engine);
    expect(await refusal(requestLink(t.deps, { email: ADA, poll: 'yes' }))).toMatchObject({
      status: 400,
      code: 'invalid_body',
    });
    expect(await t.snapshot()).toEqual({
      'svc-magic-links': [],
      'svc-magic-codes': [],
      users: [],
      'svc-sessions': [],
    });
  });
});
