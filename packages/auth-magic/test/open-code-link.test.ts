import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
import { generateToken, openCodeLink, requestCode, verifyCode } from '../src/index';
import { harness, refusal } from './support/harness';

const ADA = 'ada@example.test';

describeEngines('openCodeLink', (engine) => {
  it('signs in the browser that asked for the code; another browser changes nothing and must confirm', async () => {
    const t = await harness(engine);
    const asking = generateToken();
    await requestCode(t.deps, { email: ADA, browser: asking });
    const code = t.mailer.lastCodeTo(ADA);
    const before = await t.snapshot();
    for (const browser of [null, generateToken()]) {
      expect(await openCodeLink(t.deps, { email: ` ${ADA.toUpperCase()} `, code, browser })).toEqual({
        status: 'confirm',
        email: ADA,
        code,
      });
    }
    expect(await t.snapshot()).toEqual(before);
    const opened = await openCodeLink(t.deps, { email: ADA, code, browser: asking });
    expect(opened).toMatchObject({ status: 'signed_in', session: { user: { email: ADA } } });
  });

  it('stores only keyed hashes of the browsers that asked, at most five per code', async () => {
    const t = await harness(engine, { rateLimit: { perAddress: { max: 1 }, perIp: { max: 1000 } } });
    const browsers = Array.from({ length: 7 }, () => generateToken());
    for (const browser of browsers) await requestCode(t.deps, { email: ADA, browser });
    const [record, ...rest] = await t.all('svc-magic-codes');
    expect(rest).toEqual([]);
    expect(record?.browsers).toHaveLength(5);
    for (const browser of browsers) expect(JSON.stringify(record)).not.toContain(browser);
    const code = t.mailer.lastCodeTo(ADA);
    // The two oldest were let go: they now confirm; the newest signs in.
    expect(await openCodeLink(t.deps, { email: ADA, code, browser: browsers[0] ?? null })).toMatchObject({
      status: 'confirm',
    });
    expect(await openCodeLink(t.deps, { email: ADA, code, browser: browsers[6] ?? null })).toMatchObject({
      status: 'signed_in',
    });
  });

  it('refuses a wrong, used or expired code as verifyCode does, a wrong one counted', async () => {
    const t = await harness(engine);
    await requestCode(t.deps, { email: ADA });
    const code = t.mailer.lastCodeTo(ADA);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(await refusal(openCodeLink(t.deps, { email: ADA, code: wrong, browser: null }))).toMatchObject({
      status: 401,
      code: 'invalid_code',
    });
    expect(await t.all('svc-magic-codes')).toMatchObject([{ attempts: 1 }]);
    await verifyCode(t.deps, { email: ADA, code });
    expect(await refusal(openCodeLink(t.deps, { email: ADA, code, browser: null }))).toMatchObject({
      status: 409,
      code: 'already_used',
    });
    await requestCode(t.deps, { email: ADA });
    t.advance(11 * 60_000);
    const late = openCodeLink(t.deps, { email: ADA, code: t.mailer.lastCodeTo(ADA), browser: null });
    expect(await refusal(late)).toMatchObject({ status: 410, code: 'token_expired' });
  });
});
