import { describe, expect, it, vi } from 'vitest';
import { buildMessage, createMailTransport, mailError, sendMessage } from './mail';
import type { ResolvedEmail } from './resolved-options';

const email: ResolvedEmail = {
  from: 'no-reply@shop.example',
  subject: 'Your sign-in link',
  text: (_user, _token, url) => url,
  html: (_user, _token, url) => `<a href="${url}">sign in</a>`,
  replyTo: undefined,
  headers: { 'X-Tag': 'login' },
};

describe('buildMessage', () => {
  it('fills from, to, subject and both parts from (user, token, url)', () => {
    const message = buildMessage(email, 'ada@example.test', {
      user: null,
      token: 't',
      url: 'https://shop.example/l',
    });
    expect(message).toEqual({
      from: 'no-reply@shop.example',
      to: 'ada@example.test',
      subject: 'Your sign-in link',
      text: 'https://shop.example/l',
      html: '<a href="https://shop.example/l">sign in</a>',
      headers: { 'X-Tag': 'login' },
    });
  });
});

describe('mailError', () => {
  it.each([
    ['connection refused', { code: 'ECONNECTION' }, 503, 'mail_unavailable'],
    ['timeout', { code: 'ETIMEDOUT' }, 503, 'mail_unavailable'],
    ['DNS failure', { code: 'EDNS' }, 503, 'mail_unavailable'],
    ['temporary SMTP refusal', { code: 'EENVELOPE', responseCode: 451 }, 503, 'mail_unavailable'],
    ['permanent SMTP refusal', { code: 'EENVELOPE', responseCode: 550 }, 502, 'mail_failed'],
    ['authentication failure', { code: 'EAUTH', responseCode: 535 }, 502, 'mail_failed'],
    ['anything else', new Error('boom: secret detail'), 502, 'mail_failed'],
  ])('maps %s to %i %s without leaking its text', (_label, error, status, code) => {
    const mapped = mailError(error);
    expect(mapped).toMatchObject({ status, code });
    expect(mapped.detail).not.toContain('secret detail');
  });
});

describe('createMailTransport', () => {
  it('prints to stdout with ONE warning when no mailer is configured', async () => {
    const logger = { warn: vi.fn(), log: vi.fn() };
    const transport = createMailTransport(null, logger, 15_000);
    const message = buildMessage(email, 'ada@example.test', {
      user: null,
      token: 't',
      url: 'https://x.example/1',
    });
    await transport.sendMail(message);
    await transport.sendMail(message);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.log).toHaveBeenCalledTimes(2);
    expect(logger.log).toHaveBeenCalledWith(expect.stringContaining('https://x.example/1'));
  });

  it('uses a given transporter as is', () => {
    const transporter = { sendMail: vi.fn(async () => ({})) };
    expect(createMailTransport(transporter, console, 15_000)).toBe(transporter);
  });

  it.each([
    ['an SMTP URL', 'smtp://127.0.0.1:2525'],
    ['transport options', { host: '127.0.0.1', port: 2525 }],
  ])('builds a nodemailer transporter from %s', (_label, option) => {
    expect(typeof createMailTransport(option, console, 15_000).sendMail).toBe('function');
  });

  it.each([['http://x.example'], [42], [['smtp://a']]])('rejects %j naming `mailer`', (option) => {
    expect(() => createMailTransport(option as never, console, 15_000)).toThrow(/"mailer"/);
  });
});

describe('sendMessage', () => {
  it('turns a transport failure into an AuthError', async () => {
    const failing = {
      sendMail: async () => Promise.reject(Object.assign(new Error('x'), { code: 'ECONNECTION' })),
    };
    const message = buildMessage(email, 'a@b.example', { user: null, token: 't', url: 'u' });
    await expect(sendMessage(failing, message, 15_000)).rejects.toMatchObject({
      status: 503,
      code: 'mail_unavailable',
    });
  });
});
