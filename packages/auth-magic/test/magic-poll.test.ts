import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
import {
  approveLink,
  consumeLink,
  generateToken,
  inspectLink,
  pollLinkStatus,
  requestLink,
} from '../src/index';
import { harness, refusal } from './support/harness';

const ADA = 'ada@example.test';

describeEngines('magic link with polling', (engine) => {
  async function asked(options = {}) {
    const t = await harness(engine, options);
    const { pollToken } = await requestLink(t.deps, {
      email: ADA,
      poll: true,
      request: { ip: '203.0.113.9', userAgent: 'Phone' },
    });
    if (pollToken === undefined) throw new Error('no pollToken');
    return { ...t, pollToken, linkToken: t.mailer.lastLinkTokenTo(ADA) };
  }

  it('returns a pollToken, pending until approved, then the session exactly once, then 409', async () => {
    const t = await asked();
    expect(t.pollToken).toMatch(/^[\w-]{43}$/);
    expect(await pollLinkStatus(t.deps, { token: t.pollToken })).toEqual({
      status: 'pending',
      retryAfter: 2,
    });
    expect(await approveLink(t.deps, { token: t.linkToken, request: { ip: '192.0.2.1' } })).toEqual({
      status: 'approved',
    });
    const polled = await pollLinkStatus(t.deps, { token: t.pollToken });
    expect(polled).toMatchObject({
      status: 'signed_in',
      session: { token: expect.any(String), user: { email: ADA } },
    });
    expect(await refusal(pollLinkStatus(t.deps, { token: t.pollToken }))).toMatchObject({
      status: 409,
      code: 'already_used',
    });
    expect(await t.all('svc-sessions')).toHaveLength(1);
  });

  it('shows who asked on GET and changes nothing; a GET never consumes a poll link', async () => {
    const t = await asked();
    const before = await t.snapshot();
    expect(await inspectLink(t.deps, { token: t.linkToken })).toMatchObject({
      status: 'confirm',
      ip: '203.0.113.9',
      userAgent: 'Phone',
    });
    expect(await refusal(consumeLink(t.deps, { token: t.linkToken }))).toMatchObject({
      status: 409,
      code: 'approval_required',
    });
    expect(await t.snapshot()).toEqual(before);
    expect(await pollLinkStatus(t.deps, { token: t.pollToken })).toMatchObject({ status: 'pending' });
  });

  it('hands the session to exactly one of two parallel polls', async () => {
    const t = await asked();
    await approveLink(t.deps, { token: t.linkToken });
    const outcomes = await Promise.allSettled([
      pollLinkStatus(t.deps, { token: t.pollToken }),
      pollLinkStatus(t.deps, { token: t.pollToken }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')?.reason).toMatchObject({
      status: 409,
      code: 'already_used',
    });
    expect(await t.all('svc-sessions')).toHaveLength(1);
  });

  it('lets exactly one of two parallel approvals succeed', async () => {
    const t = await asked();
    const outcomes = await Promise.allSettled([
      approveLink(t.deps, { token: t.linkToken }),
      approveLink(t.deps, { token: t.linkToken }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')?.reason).toMatchObject({
      status: 409,
      code: 'already_used',
    });
  });

  it('answers 404 for an unknown poll token and 410 once the link expired, changing nothing', async () => {
    const t = await asked();
    expect(await refusal(pollLinkStatus(t.deps, { token: generateToken() }))).toMatchObject({
      status: 404,
      code: 'token_not_found',
    });
    expect(await refusal(pollLinkStatus(t.deps, { token: 'x' }))).toMatchObject({
      status: 404,
      code: 'token_not_found',
    });
    t.advance(24 * 3_600_000 + 1);
    const before = await t.snapshot();
    expect(await refusal(pollLinkStatus(t.deps, { token: t.pollToken }))).toMatchObject({
      status: 410,
      code: 'token_expired',
    });
    expect(await refusal(approveLink(t.deps, { token: t.linkToken }))).toMatchObject({
      status: 410,
      code: 'token_expired',
    });
    expect(await t.snapshot()).toEqual(before);
  });

  it('creates the user on approval (verification), not on request', async () => {
    const t = await asked();
    expect(await t.all('users')).toEqual([]);
    await approveLink(t.deps, { token: t.linkToken });
    expect(await t.all('users')).toMatchObject([{ email: ADA }]);
  });

  it('a POST on a link requested without poll signs in that browser', async () => {
    const t = await harness(engine);
    await requestLink(t.deps, { email: ADA });
    const result = await approveLink(t.deps, { token: t.mailer.lastLinkTokenTo(ADA) });
    expect(result).toMatchObject({ status: 'signed_in', session: { user: { email: ADA } } });
  });
});
