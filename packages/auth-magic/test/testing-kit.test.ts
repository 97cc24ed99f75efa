import type { StoreDb } from '@store/common';
import { createEmbeddedDb } from '@store/embedded';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type AuthDb,
  createAuthDeps,
  requestCode,
  requestLink,
  resolveAuthOptions,
  verifyCode,
} from '../src/index';
import { createCapturingMailer, createTestAuth } from '../src/testing';

describe('@store/auth-magic/testing', () => {
  it("runs the README's recipe without a database of the caller's (a fresh in-memory one)", async () => {
    const doVerify = async () => {
      throw Object.assign(new Error('nobody today'), { status: 403 });
    };
    const { deps, mailer } = createTestAuth({ magicCode: { doVerify } });
    await requestCode(deps, { email: 'eve@else.test' });
    await expect(
      verifyCode(deps, { email: 'eve@else.test', code: mailer.lastCodeTo('eve@else.test') }),
    ).rejects.toMatchObject({ status: 403 });
    expect(createTestAuth().deps).not.toBe(deps);
  });

  it('unit-tests a doVerify in a few lines', async () => {
    const doVerify = async ({ email }: { email: string }) => {
      if (!email.endsWith('@corp.test'))
        throw Object.assign(new Error('Corporate addresses only'), { status: 403 });
    };
    const { deps, mailer } = createTestAuth(createEmbeddedDb(), { magicCode: { doVerify } });

    await requestCode(deps, { email: 'eve@else.test' });
    await expect(
      verifyCode(deps, { email: 'eve@else.test', code: mailer.lastCodeTo('eve@else.test') }),
    ).rejects.toMatchObject({
      status: 403,
      detail: 'Corporate addresses only',
    });
    await requestCode(deps, { email: 'ada@corp.test' });
    await expect(
      verifyCode(deps, { email: 'ada@corp.test', code: mailer.lastCodeTo('ada@corp.test') }),
    ).resolves.toMatchObject({
      user: { email: 'ada@corp.test' },
    });
  });

  it('captures messages and finds codes and links in their text part', async () => {
    const mailer = createCapturingMailer();
    const deps = createAuthDeps(
      createEmbeddedDb(),
      resolveAuthOptions({
        magicLink: {},
        secret: 'kit-test-secret-0123',
        baseUrl: 'https://a.example',
        mailer,
      }),
    );
    await requestLink(deps, { email: 'Ada@Corp.test' });
    const message = mailer.lastMessageTo('ADA@corp.test');
    expect(message).toMatchObject({
      to: 'ada@corp.test',
      code: null,
      link: expect.stringMatching(/^https:\/\/a\.example\/auth\/magic-link\//),
    });
    expect(mailer.lastLinkTokenTo('ada@corp.test')).toBe(message?.linkToken);
    expect(() => mailer.lastCodeTo('ada@corp.test')).toThrow(/no code was mailed/);
    mailer.clear();
    expect(mailer.messages).toEqual([]);
  });

  it('accepts core’s StoreDb wherever the flows take a database', () => {
    expectTypeOf<StoreDb>().toExtend<AuthDb>();
  });
});
