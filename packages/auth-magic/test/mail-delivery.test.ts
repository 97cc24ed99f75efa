import { type AddressInfo, createServer, type Socket } from 'node:net';
import { describeEngines, startSmtpServer, type TestSmtpServer } from '@store/test-kit';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  type AuthOptions,
  consumeLink,
  createAuthDeps,
  requestCode,
  requestLink,
  resolveAuthOptions,
  verifyCode,
} from '../src/index';
import { harness, refusal } from './support/harness';

const ADA = 'ada@example.test';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

/** Decodes a quoted-printable text part as nodemailer writes it. */
const textOf = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** Deps whose mail goes through the `mailer` option as a user would configure it. */
function withMailer(
  t: Awaited<ReturnType<typeof harness>>,
  mailer: AuthOptions['mailer'],
  extra: AuthOptions = {},
) {
  const options: AuthOptions = {
    magicCode: {},
    magicLink: {},
    secret: 'smtp-test-secret-0123',
    baseUrl: 'http://store.test',
  };
  return createAuthDeps(
    t.db,
    resolveAuthOptions({ ...options, mailer, rateLimit: { perIp: null }, ...extra }),
  );
}

describeEngines('mail delivery', (engine) => {
  it('delivers the code over SMTP (mailer as an SMTP URL) and the code signs in', async () => {
    const deps = withMailer(await harness(engine), smtp.url);
    const count = smtp.received.length;
    await requestCode(deps, { email: ADA });
    const mail = smtp.received[count];
    expect(mail).toMatchObject({ from: 'no-reply@store.test', to: [ADA] });
    expect(mail?.raw).toMatch(/^Subject: Your sign-in code$/m);
    const code = /^(\d{6})$/m.exec(textOf(mail?.raw ?? ''))?.[1];
    expect(code).toBeDefined();
    await expect(verifyCode(deps, { email: ADA, code })).resolves.toMatchObject({ user: { email: ADA } });
  });

  it('delivers the absolute link over SMTP through transport options, and it signs in', async () => {
    const { port } = new URL(smtp.url);
    const deps = withMailer(await harness(engine), {
      host: '127.0.0.1',
      port: Number(port),
      ignoreTLS: true,
    });
    const count = smtp.received.length;
    await requestLink(deps, { email: ADA });
    const token = /http:\/\/store\.test\/auth\/magic-link\/([\w-]{43})/.exec(
      textOf(smtp.received[count]?.raw ?? ''),
    )?.[1];
    await expect(consumeLink(deps, { token })).resolves.toMatchObject({ user: { email: ADA } });
  });

  it.each([
    ['a permanent SMTP refusal', 550, 502, 'mail_failed'],
    ['a temporary SMTP refusal', 451, 503, 'mail_unavailable'],
  ])('answers %s with %i %s and leaves no active secret', async (_label, smtpCode, status, code) => {
    const t = await harness(engine);
    const deps = withMailer(t, smtp.url);
    smtp.rejectNextRecipient(smtpCode);
    expect(await refusal(requestLink(deps, { email: ADA }))).toMatchObject({ status, code });
    expect(await t.all('svc-magic-links')).toEqual([]);
  });

  it('answers an unreachable mail server with 503 mail_unavailable, keeping older secrets as they were', async () => {
    const t = await harness(engine, { magicCode: { max: 1 } });
    await requestCode(t.deps, { email: ADA });
    const before = await t.snapshot();
    t.mailer.failNext();
    expect(await refusal(requestCode(t.deps, { email: ADA }))).toMatchObject({
      status: 503,
      code: 'mail_unavailable',
    });
    expect(await t.snapshot()).toEqual(before);
    await expect(verifyCode(t.deps, { email: ADA, code: t.mailer.lastCodeTo(ADA) })).resolves.toMatchObject({
      user: { email: ADA },
    });
  });

  it.each([
    ['an SMTP URL', (port: number) => `smtp://127.0.0.1:${port}`],
    ['transport options', (port: number) => ({ host: '127.0.0.1', port, secure: false })],
  ])(
    'answers a mail server that never speaks (%s) with 503 mail_unavailable within sendTimeout',
    async (_label, mailer) => {
      const sockets = new Set<Socket>();
      const silent = createServer((socket) => sockets.add(socket)); // accepts, never greets
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as AddressInfo;
      try {
        const t = await harness(engine);
        const deps = withMailer(t, mailer(port), { sendTimeout: 300 });
        expect(await refusal(requestCode(deps, { email: ADA }))).toMatchObject({
          status: 503,
          code: 'mail_unavailable',
        });
        expect((await t.all('svc-magic-codes')).filter((code) => code.state === 'active')).toHaveLength(0);
      } finally {
        for (const socket of sockets) socket.destroy();
        silent.close();
      }
    },
  );

  it('answers a transporter that never settles with 503 mail_unavailable after sendTimeout', async () => {
    const t = await harness(engine);
    const hanging = { sendMail: () => new Promise<never>(() => undefined) };
    const deps = withMailer(t, hanging, { sendTimeout: 200 });
    expect(await refusal(requestLink(deps, { email: ADA }))).toMatchObject({ status: 503 });
  });

  it('does not charge a failed send to the address quota', async () => {
    const t = await harness(engine, { rateLimit: { perAddress: { max: 2, window: '1 hour' } } });
    for (let i = 0; i < 3; i += 1) {
      t.mailer.failNext();
      expect(await refusal(requestCode(t.deps, { email: ADA }))).toMatchObject({ status: 503 });
    }
    await requestCode(t.deps, { email: ADA });
    await expect(requestCode(t.deps, { email: ADA })).resolves.toMatchObject({ sent: true });
    expect(t.mailer.messages.filter((m) => m.to === ADA)).toHaveLength(2);
  });

  it('prints to stdout with one warning when no mailer is configured', async () => {
    const logger = { warn: vi.fn(), log: vi.fn() };
    const deps = withMailer(await harness(engine), null, { logger });
    await requestCode(deps, { email: ADA });
    await requestCode(deps, { email: 'bob@example.test' });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.log).toHaveBeenCalledTimes(2);
    const code = /\n\n(\d{6})\n/.exec(String(logger.log.mock.calls[0]?.[0]))?.[1];
    await expect(verifyCode(deps, { email: ADA, code })).resolves.toMatchObject({ user: { email: ADA } });
  });
});
