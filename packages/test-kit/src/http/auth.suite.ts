import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  capturedMailbox,
  cookieToken,
  type Mailbox,
  smtpMailbox,
  startAuth,
  startSmtpServer,
  type TestSmtpServer,
} from './auth-fixtures';
import { authLinkTests } from './auth-link.suite';
import { authRouteTests } from './auth-routes.suite';
import type { Start } from './fixtures';
import { asString, expectProblem, field } from './harness';

const ADA = 'ada@example.test';

/** The magic-code flow end to end, through whichever mailbox `mailbox()` gives. */
function codeFlowTests(start: Start, mailbox: () => Mailbox): void {
  it('request -> mail -> verify -> GET /auth/session (Bearer and cookie) -> logout -> 401', async () => {
    const api = await startAuth(start, { mailbox: mailbox() });
    const asked = await api.send('POST', '/auth/magic-code/', { json: { email: ' Ada@Example.test ' } });
    expect(asked.status, asked.text).toBe(202);
    expect(asked.json).toEqual({ sent: true, expiresAt: expect.any(String) });
    expect(asked.headers.get('cache-control')).toBe('no-store');

    const code = api.mailbox.codeTo(ADA);
    const verified = await api.send('POST', '/auth/magic-code/verify', { json: { email: ADA, code } });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.json).toEqual({
      token: expect.stringMatching(/^[\w-]{43}$/),
      user: { _id: expect.anything(), email: ADA, createdAt: expect.any(String) },
      expiresAt: expect.any(String),
    });
    const setCookie = verified.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^store_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
    expect(cookieToken(verified)).toBe(field(verified.json, 'token'));
    expect(verified.headers.get('cache-control')).toBe('no-store');

    const token = asString(field(verified.json, 'token'));
    const byBearer = await api.send('GET', '/auth/session', { headers: bearer(token) });
    expect(byBearer.status).toBe(200);
    expect(byBearer.json).toEqual({
      user: field(verified.json, 'user'),
      expiresAt: field(verified.json, 'expiresAt'),
    });
    const byCookie = await api.send('GET', '/auth/session', {
      headers: { cookie: `store_session=${token}` },
    });
    expect(byCookie.json).toEqual(byBearer.json);

    const out = await api.send('POST', '/auth/logout', { headers: bearer(token) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(
      /^store_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/,
    );
    expectProblem(await api.send('GET', '/auth/session', { headers: bearer(token) }), 401, 'unauthorized');
    expectProblem(
      await api.send('GET', '/auth/session', { headers: { cookie: `store_session=${token}` } }),
      401,
      'unauthorized',
    );
    expect(await api.db.collection('svc-sessions').countDocuments({})).toBe(0);
  });

  it('verifies the code in the path of GET /auth/magic-code/:email/:token', async () => {
    const api = await startAuth(start, { mailbox: mailbox() });
    await api.send('POST', '/auth/magic-code/', { json: { email: ADA } });
    const code = api.mailbox.codeTo(ADA);
    const verified = await api.send('GET', `/auth/magic-code/${encodeURIComponent(ADA)}/${code}`);
    expect(verified.status, verified.text).toBe(200);
    expect(field(verified.json, 'user', 'email')).toBe(ADA);
    const session = await api.send('GET', '/auth/session', {
      headers: bearer(asString(field(verified.json, 'token'))),
    });
    expect(field(session.json, 'user')).toEqual(field(verified.json, 'user'));
  });
}

/** Refusals of code verification: each asserts status, code and that nothing else changed. */
function codeRefusalTests(start: Start): void {
  async function sent(auth = {}) {
    const api = await startAuth(start, { auth });
    expect((await api.send('POST', '/auth/magic-code/', { json: { email: ADA } })).status).toBe(202);
    return { api, code: api.mailbox.codeTo(ADA) };
  }
  const verify = (api: Awaited<ReturnType<typeof sent>>['api'], code: string) =>
    api.send('POST', '/auth/magic-code/verify', { json: { email: ADA, code } });
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('answers 401 invalid_code to a wrong code, creating no user or session; the right one still works', async () => {
    const { api, code } = await sent();
    const before = await api.snapshot();
    expectProblem(await verify(api, wrong(code)), 401, 'invalid_code');
    const after = await api.snapshot();
    expect({ ...after, 'svc-magic-codes': [] }).toEqual({ ...before, 'svc-magic-codes': [] });
    expect(after['svc-magic-codes']).toEqual([expect.objectContaining({ state: 'active', attempts: 1 })]);
    expect((await verify(api, code)).status).toBe(200);
  });

  it('answers 429 to a client past maxAttempts misses, without looking at its guess', async () => {
    const { api, code } = await sent({ magicCode: { maxAttempts: 2 } });
    expectProblem(await verify(api, wrong(code)), 401, 'invalid_code');
    expectProblem(await verify(api, wrong(code)), 401, 'invalid_code');
    const before = await api.snapshot();
    const refused = await verify(api, code);
    expectProblem(refused, 429, 'too_many_requests');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await api.snapshot()).toEqual(before);
    expect(before.users).toEqual([]);
    expect(before['svc-sessions']).toEqual([]);
  });

  it('answers 401 invalid_code to the right code once maxGuesses misses exhausted it', async () => {
    const { api, code } = await sent({ magicCode: { maxAttempts: 2, maxGuesses: 2 } });
    await verify(api, wrong(code));
    await verify(api, wrong(code));
    const codes = await api.db.collection('svc-magic-codes').find({}).toArray();
    expect(codes).toMatchObject([{ state: 'exhausted', attempts: 2 }]);
  });

  it('answers 410 token_expired past exp, changing nothing', async () => {
    const { api, code } = await sent();
    api.advance(10 * 60_000 + 1);
    const before = await api.snapshot();
    expectProblem(await verify(api, code), 410, 'token_expired');
    expect(await api.snapshot()).toEqual(before);
  });

  it('answers 409 already_used to a reused code, changing nothing', async () => {
    const { api, code } = await sent();
    expect((await verify(api, code)).status).toBe(200);
    const before = await api.snapshot();
    expectProblem(await verify(api, code), 409, 'already_used');
    expect(await api.snapshot()).toEqual(before);
  });

  it('answers 401 invalid_code for an address no code was sent to, changing nothing', async () => {
    const { api, code } = await sent();
    const before = await api.snapshot();
    const reply = await api.send('POST', '/auth/magic-code/verify', {
      json: { email: 'bob@example.test', code },
    });
    expectProblem(reply, 401, 'invalid_code');
    expect(await api.snapshot()).toEqual(before);
  });

  it('gives exactly one session to concurrent verifications of one code (parallel requests)', async () => {
    const { api, code } = await sent();
    const replies = await Promise.all(Array.from({ length: 6 }, () => verify(api, code)));
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    for (const reply of replies.filter((r) => r.status === 409)) expectProblem(reply, 409, 'already_used');
    expect(await api.db.collection('svc-sessions').countDocuments({})).toBe(1);
    expect(await api.db.collection('users').countDocuments({})).toBe(1);
  });

  it.each([
    ['no email', {}],
    ['a malformed email', { email: 'ada@' }],
    ['a header injection', { email: 'ada@example.test\r\nBcc: eve@evil.test' }],
  ])('answers 400 invalid_email to %s, sending nothing', async (_, json) => {
    const api = await startAuth(start);
    const before = await api.snapshot();
    expectProblem(await api.send('POST', '/auth/magic-code/', { json }), 400, 'invalid_email');
    expect(await api.snapshot()).toEqual(before);
    expect(api.mailbox.count()).toBe(0);
  });
}

/**
 * Sign-in over HTTP: `resources.user.auth` mounts the passwordless routes. The
 * main flows run twice: with mail captured in memory, and delivered over SMTP to a real server.
 */
export function authTests(start: Start): void {
  let smtp: TestSmtpServer | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp?.close());
  const overSmtp = () => {
    if (smtp === undefined) throw new Error('the SMTP server did not start');
    return smtpMailbox(smtp);
  };

  describe('auth: magic code', () => {
    codeFlowTests(start, capturedMailbox);
    codeRefusalTests(start);
  });
  describe('auth: magic code, mail delivered over SMTP (mailer: smtp:// URL)', () => {
    codeFlowTests(start, overSmtp);
  });
  authLinkTests(start, { captured: capturedMailbox, smtp: overSmtp });
  authRouteTests(start);
}
