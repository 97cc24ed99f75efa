import { describe, expect, it } from 'vitest';
import { type AuthApi, BASE_URL, bearer, cookieToken, type Mailbox, startAuth } from './auth-fixtures';
import type { Start } from './fixtures';
import { asString, expectProblem, field } from './harness';

const ADA = 'ada@example.test';
const JSON_ACCEPT = { accept: 'application/json' };

/** Asks for a link for ADA and returns its token, checking the mail carries the absolute link. */
async function linked(api: AuthApi, json: Record<string, unknown> = {}) {
  const asked = await api.send('POST', '/auth/magic-link/', { json: { email: ADA, ...json } });
  expect(asked.status, asked.text).toBe(202);
  const { link, token } = api.mailbox.linkTo(ADA);
  expect(link).toBe(`${BASE_URL}/auth/magic-link/${token}`);
  return { asked, token };
}

function linkFlowTests(start: Start, mailbox: () => Mailbox): void {
  it('signs in the browser that opens a plain link (200 with the session), then 409 already_used', async () => {
    const api = await startAuth(start, { mailbox: mailbox() });
    const { asked, token } = await linked(api);
    expect(asked.json).toEqual({ sent: true, expiresAt: expect.any(String) });

    const before = await api.snapshot();
    const head = await api.send('HEAD', `/auth/magic-link/${token}`);
    expect(head.status).toBe(204);
    expect(await api.snapshot()).toEqual(before);

    const opened = await api.send('GET', `/auth/magic-link/${token}`);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.json).toMatchObject({ token: expect.any(String), user: { email: ADA } });
    expect(cookieToken(opened)).toBe(field(opened.json, 'token'));
    const session = await api.send('GET', '/auth/session', {
      headers: bearer(asString(field(opened.json, 'token'))),
    });
    expect(field(session.json, 'user')).toEqual(field(opened.json, 'user'));

    const after = await api.snapshot();
    expectProblem(await api.send('GET', `/auth/magic-link/${token}`), 409, 'already_used');
    expect(await api.snapshot()).toEqual(after);
  });

  it('polls: the confirm page and HEAD change nothing; the approval POST lets the poll collect the session once', async () => {
    const api = await startAuth(start, { mailbox: mailbox() });
    const { asked, token } = await linked(api, { poll: true });
    const pollToken = field(asked.json, 'pollToken');
    expect(pollToken).toMatch(/^[\w-]{43}$/);

    const pending = await api.send('GET', `/auth/magic-token/${pollToken}`);
    expect(pending.status).toBe(202);
    expect(pending.json).toEqual({ status: 'pending' });
    expect(pending.headers.get('retry-after')).toBe('2');

    const before = await api.snapshot();
    const page = await api.send('GET', `/auth/magic-link/${token}`, {
      headers: { 'user-agent': 'Phone <b>' },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).toContain(`<form method="post" action="${BASE_URL}/auth/magic-link/${token}">`);
    expect(page.text).toMatch(/127\.0\.0\.1/);
    const confirm = await api.send('GET', `/auth/magic-link/${token}`, { headers: JSON_ACCEPT });
    expect(confirm.json).toEqual({
      status: 'confirm',
      requestedAt: expect.any(String),
      ip: expect.stringMatching(/127\.0\.0\.1/),
      userAgent: expect.any(String),
    });
    expect((await api.send('HEAD', `/auth/magic-link/${token}`)).status).toBe(204);
    expect(await api.snapshot()).toEqual(before);
    expect((await api.send('GET', `/auth/magic-token/${pollToken}`)).status).toBe(202);

    const approved = await api.send('POST', `/auth/magic-link/${token}`, { form: '' });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json).toEqual({ status: 'approved' });
    expect(cookieToken(approved)).toBeUndefined();

    const collected = await api.send('GET', `/auth/magic-token/${pollToken}`);
    expect(collected.status, collected.text).toBe(200);
    expect(collected.json).toMatchObject({ token: expect.any(String), user: { email: ADA } });
    const session = await api.send('GET', '/auth/session', {
      headers: bearer(asString(field(collected.json, 'token'))),
    });
    expect(session.status).toBe(200);

    const after = await api.snapshot();
    expectProblem(await api.send('GET', `/auth/magic-token/${pollToken}`), 409, 'already_used');
    expectProblem(await api.send('POST', `/auth/magic-link/${token}`), 409, 'already_used');
    expect(await api.snapshot()).toEqual(after);
  });
}

function linkRefusalTests(start: Start): void {
  const unknown = 'A'.repeat(43);

  it.each([
    ['GET', '/auth/magic-link/'],
    ['POST', '/auth/magic-link/'],
    ['GET', '/auth/magic-token/'],
  ])('answers 404 token_not_found to %s %s<unknown token>, changing nothing', async (method, path) => {
    const api = await startAuth(start);
    await linked(api, { poll: true });
    const before = await api.snapshot();
    expectProblem(await api.send(method, `${path}${unknown}`), 404, 'token_not_found');
    expect(await api.snapshot()).toEqual(before);
  });

  it('answers 410 token_expired to an expired link and poll token, changing nothing', async () => {
    const api = await startAuth(start);
    const { asked, token } = await linked(api, { poll: true });
    api.advance(24 * 3_600_000 + 1);
    const before = await api.snapshot();
    expectProblem(await api.send('GET', `/auth/magic-link/${token}`), 410, 'token_expired');
    expectProblem(await api.send('POST', `/auth/magic-link/${token}`), 410, 'token_expired');
    expectProblem(
      await api.send('GET', `/auth/magic-token/${field(asked.json, 'pollToken')}`),
      410,
      'token_expired',
    );
    expect(await api.snapshot()).toEqual(before);
  });

  it('gives exactly one session to concurrent openings of one link (parallel requests)', async () => {
    const api = await startAuth(start);
    const { token } = await linked(api);
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => api.send('GET', `/auth/magic-link/${token}`)),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await api.db.collection('svc-sessions').countDocuments({})).toBe(1);
  });

  it('refuses an approval POST with another media type (415), changing nothing', async () => {
    const api = await startAuth(start);
    const { token } = await linked(api, { poll: true });
    const before = await api.snapshot();
    const reply = await api.send('POST', `/auth/magic-link/${token}`, {
      raw: 'approve',
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(reply, 415, 'unsupported_media_type');
    expect(await api.snapshot()).toEqual(before);
  });
}

function redirectTests(start: Start): void {
  const redirects = { redirectSuccess: '/welcome', redirectAlreadyUsed: '/used', redirectNotFound: '/who' };

  it('redirects to redirectSuccess with the cookie set, then to redirectAlreadyUsed', async () => {
    const api = await startAuth(start, { auth: { magicLink: redirects } });
    const { token } = await linked(api);
    const opened = await api.send('GET', `/auth/magic-link/${token}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe('/welcome');
    const session = await api.send('GET', '/auth/session', { headers: bearer(cookieToken(opened) ?? '') });
    expect(field(session.json, 'user', 'email')).toBe(ADA);
    const again = await api.send('GET', `/auth/magic-link/${token}`);
    expect({ status: again.status, location: again.headers.get('location') }).toEqual({
      status: 302,
      location: '/used',
    });
  });

  it('redirects to redirectNotFound when the user is missing and createUser is false, changing nothing', async () => {
    const api = await startAuth(start, { auth: { magicLink: redirects, createUser: false } });
    const { token } = await linked(api);
    const before = await api.snapshot();
    const opened = await api.send('GET', `/auth/magic-link/${token}`);
    expect({ status: opened.status, location: opened.headers.get('location') }).toEqual({
      status: 302,
      location: '/who',
    });
    expect(await api.snapshot()).toEqual(before);
  });

  it('answers 404 user_not_found without redirects when the user is missing and createUser is false', async () => {
    const api = await startAuth(start, { auth: { createUser: false } });
    const { token } = await linked(api);
    const before = await api.snapshot();
    expectProblem(await api.send('GET', `/auth/magic-link/${token}`), 404, 'user_not_found');
    expect(await api.snapshot()).toEqual(before);
  });

  it('answers the approval POST with 303 to redirectSuccess', async () => {
    const api = await startAuth(start, { auth: { magicLink: redirects } });
    const { token } = await linked(api, { poll: true });
    const approved = await api.send('POST', `/auth/magic-link/${token}`);
    expect({ status: approved.status, location: approved.headers.get('location') }).toEqual({
      status: 303,
      location: '/welcome',
    });
  });
}

/** Magic links, same device and polled, over HTTP. */
export function authLinkTests(start: Start, mailboxes: Record<'captured' | 'smtp', () => Mailbox>): void {
  describe('auth: magic link', () => {
    linkFlowTests(start, mailboxes.captured);
    linkRefusalTests(start);
    redirectTests(start);
  });
  describe('auth: magic link, mail delivered over SMTP (mailer: smtp:// URL)', () => {
    linkFlowTests(start, mailboxes.smtp);
  });
}
