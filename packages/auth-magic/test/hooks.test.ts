import { describeEngines } from '@store/test-kit';
import { expect, it, vi } from 'vitest';
import type { AuthHookContext } from '../src/index';
import { approveLink, consumeLink, pollLinkStatus, requestCode, requestLink, verifyCode } from '../src/index';
import { harness, refusal } from './support/harness';

const ADA = 'ada@example.test';
const refuse = (status?: number, code?: string) => async () => {
  throw Object.assign(new Error('refused by policy'), { status, code });
};

describeEngines('hooks', (engine) => {
  it('gives doGenerate, doVerify and doRetrieve one plain context', async () => {
    const seen: Array<[string, AuthHookContext]> = [];
    const hook = (name: string) => async (context: AuthHookContext) => void seen.push([name, context]);
    const t = await harness(engine, {
      magicCode: { doGenerate: hook('generate'), doVerify: hook('verify'), doRetrieve: hook('retrieve') },
    });
    const request = { ip: '198.51.100.1', userAgent: 'UA', flags: { source: 'app' } };
    await requestCode(t.deps, { email: ADA, request });
    const code = t.mailer.lastCodeTo(ADA);
    await verifyCode(t.deps, { email: ADA, code, request });
    expect(seen.map(([name]) => name)).toEqual(['generate', 'verify', 'retrieve']);
    for (const [, context] of seen) {
      expect(context).toMatchObject({
        email: ADA,
        user: null,
        token: code,
        request,
        flags: { source: 'app' },
      });
      expect(context.db).toBe(t.db);
    }
  });

  it.each([
    ['a status and code', refuse(451, 'region_blocked'), 451, 'region_blocked'],
    ['a status only', refuse(402), 402, 'rejected'],
    ['no status (default 403)', refuse(), 403, 'forbidden'],
  ])('aborts doVerify with %s and changes nothing', async (_label, doVerify, status, code) => {
    const t = await harness(engine, { magicCode: { doVerify } });
    await requestCode(t.deps, { email: ADA });
    const before = await t.snapshot();
    expect(await refusal(verifyCode(t.deps, { email: ADA, code: t.mailer.lastCodeTo(ADA) }))).toMatchObject({
      status,
      code,
    });
    expect(await t.snapshot()).toEqual(before);
  });

  it('aborts doGenerate: nothing stored, nothing sent', async () => {
    const t = await harness(engine, { magicLink: { doGenerate: refuse(403) } });
    expect(await refusal(requestLink(t.deps, { email: ADA }))).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect(t.mailer.messages).toEqual([]);
    expect(await t.snapshot()).toEqual({
      'svc-magic-links': [],
      'svc-magic-codes': [],
      users: [],
      'svc-sessions': [],
    });
  });

  it('aborts a link opening with doVerify: the link stays usable once the hook allows it', async () => {
    let allow = false;
    const doVerify = vi.fn(async () => {
      if (!allow) throw Object.assign(new Error('not yet'), { status: 423 });
    });
    const t = await harness(engine, { magicLink: { doVerify } });
    await requestLink(t.deps, { email: ADA });
    const token = t.mailer.lastLinkTokenTo(ADA);
    const before = await t.snapshot();
    expect(await refusal(consumeLink(t.deps, { token }))).toMatchObject({ status: 423 });
    expect(await t.snapshot()).toEqual(before);
    allow = true;
    await expect(consumeLink(t.deps, { token })).resolves.toMatchObject({ user: { email: ADA } });
  });

  it('aborts the poll retrieval with doRetrieve, keeping the approval for a later poll', async () => {
    let allow = false;
    const t = await harness(engine, {
      magicLink: {
        doRetrieve: async ({ user }) => {
          if (!allow)
            throw Object.assign(new Error(`wait, ${String(user?.email)}`), {
              status: 409,
              code: 'try_later',
            });
        },
      },
    });
    const { pollToken } = await requestLink(t.deps, { email: ADA, poll: true });
    await approveLink(t.deps, { token: t.mailer.lastLinkTokenTo(ADA) });
    const before = await t.snapshot();
    expect(await refusal(pollLinkStatus(t.deps, { token: pollToken }))).toMatchObject({
      status: 409,
      code: 'try_later',
    });
    expect(await t.snapshot()).toEqual(before);
    allow = true;
    await expect(pollLinkStatus(t.deps, { token: pollToken })).resolves.toMatchObject({
      status: 'signed_in',
    });
  });
});
