import { describe, expect, it, vi } from 'vitest';
import type { AuthOptions } from './options';
import { resolveAuthOptions } from './resolve-options';

const quiet = () => ({ warn: vi.fn(), log: vi.fn() });
const base: AuthOptions = {
  secret: 'a-secret-of-16+chars',
  baseUrl: 'https://shop.example/',
  logger: quiet(),
};

describe('resolveAuthOptions', () => {
  it('applies the documented default of every option', () => {
    const resolved = resolveAuthOptions({
      ...base,
      magicLink: {},
      magicCode: {},
      mailer: { sendMail: async () => ({}) },
    });
    expect(resolved.magicLink).toMatchObject({
      emailField: 'email',
      collection: 'svc-magic-links',
      max: 3,
      expMs: 86_400_000,
      redirectNotFound: null,
      redirectAlreadyUsed: null,
      redirectSuccess: null,
      doVerify: null,
      doGenerate: null,
      doRetrieve: null,
      pollApproval: null,
      pollInterval: 2,
      email: { from: 'no-reply@shop.example', subject: 'Your sign-in link' },
    });
    expect(resolved.magicCode).toMatchObject({
      collection: 'svc-magic-codes',
      expMs: 600_000,
      length: 6,
      maxAttempts: 5,
      max: 3,
    });
    expect(resolved).toMatchObject({
      createUser: true,
      userCollection: 'users',
      baseUrl: 'https://shop.example',
      secureCookie: true,
      sessionTtlMs: 30 * 86_400_000,
      sessionsCollection: 'svc-sessions',
      rateLimit: {
        collection: 'svc-rate-limits',
        perAddress: { max: 5, windowMs: 3_600_000 },
        perIp: { max: 30, windowMs: 60_000 },
      },
    });
  });

  it('gives link mails the url and code mails the code by default', () => {
    const { magicLink, magicCode } = resolveAuthOptions({
      ...base,
      magicLink: {},
      magicCode: {},
      mailer: 'smtp://127.0.0.1:2525',
    });
    expect(magicLink?.email.text(null, 'tok', 'https://shop.example/auth/magic-link/tok')).toBe(
      'https://shop.example/auth/magic-link/tok',
    );
    expect(magicLink?.email.html(null, 'tok', 'https://x.example/?a=1&b=<2>')).toBe(
      'https://x.example/?a=1&amp;b=&lt;2&gt;',
    );
    expect(magicCode?.email.text(null, '123456', '')).toBe('123456');
  });

  it('keeps explicit values, lets a strategy override emailField, and treats undefined as the default', () => {
    const resolved = resolveAuthOptions({
      ...base,
      emailField: 'mail',
      createUser: false,
      sessionTtl: undefined,
      magicCode: { exp: '15m', length: 8, maxAttempts: undefined, emailField: 'login' },
      rateLimit: { perIp: null, perAddress: { max: 2, window: 'in one day' } },
      mailer: 'smtp://127.0.0.1:2525',
    });
    expect(resolved.magicCode).toMatchObject({
      expMs: 900_000,
      length: 8,
      maxAttempts: 5,
      emailField: 'login',
    });
    expect(resolved.magicLink).toBeNull();
    expect(resolved).toMatchObject({ createUser: false, sessionTtlMs: 30 * 86_400_000 });
    expect(resolved.rateLimit).toMatchObject({ perIp: null, perAddress: { max: 2, windowMs: 86_400_000 } });
  });

  it.each<[string, AuthOptions]>([
    ['magicLink.exp', { magicLink: { exp: 'whenever' } }],
    ['magicCode.exp', { magicCode: { exp: 'yesterday' } }],
    ['magicCode.length', { magicCode: { length: 3 } }],
    ['magicCode.maxAttempts', { magicCode: { maxAttempts: 1.5 } }],
    ['magicLink.max', { magicLink: { max: 0 } }],
    ['magicLink.collection', { magicLink: { collection: '$bad' } }],
    ['magicLink.doVerify', { magicLink: { doVerify: 'yes' as never } }],
    ['magicLink.redirectSuccess', { magicLink: { redirectSuccess: 'javascript:alert(1)' } }],
    ['magicLink.email.text', { magicLink: { email: { text: 'hi' as never } } }],
    ['emailField', { emailField: 'a.b' }],
    ['sessionTtl', { sessionTtl: 'never' }],
    ['rateLimit.perIp.window', { rateLimit: { perIp: { window: 'soon-ish' } } }],
    ['secret', { secret: 'short' }],
    ['baseUrl', { baseUrl: 'ftp://files.example' }],
    ['baseUrl', { baseUrl: 'not a url' }],
    ['createUser', { createUser: 'yes' as never }],
    ['mailer', { mailer: 'http://mail.example' }],
  ])('fails fast naming `%s`', (name, options) => {
    expect(() => resolveAuthOptions({ ...base, mailer: 'smtp://127.0.0.1:2525', ...options })).toThrow(
      expect.objectContaining({
        code: 'invalid_config',
        option: name,
        message: expect.stringContaining(`"${name}"`),
      }),
    );
  });

  it('requires baseUrl when magicLink is enabled: links never come from a Host header', () => {
    expect(() => resolveAuthOptions({ ...base, baseUrl: undefined, magicLink: {} })).toThrow(/"baseUrl"/);
  });

  it('warns once and uses a random secret when none is given', () => {
    const logger = quiet();
    const first = resolveAuthOptions({ logger, mailer: 'smtp://127.0.0.1:2525' });
    const second = resolveAuthOptions({ logger, mailer: 'smtp://127.0.0.1:2525' });
    expect(first.secret).not.toBe(second.secret);
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('secret'));
  });

  it('does not mutate the options it is given', () => {
    const options: AuthOptions = {
      ...base,
      magicLink: { email: { from: 'a@b.example' } },
      mailer: 'smtp://127.0.0.1:2525',
    };
    const copy = structuredClone({ ...options, logger: undefined });
    resolveAuthOptions(options);
    expect({ ...options, logger: undefined }).toEqual(copy);
  });
});
