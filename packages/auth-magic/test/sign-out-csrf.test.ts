/**
 * Sign-out CSRF, over real HTTP: a form of another site posting to `/auth/logout` (or
 * `/auth/logout-everywhere`) with the victim's session cookie must not sign them out. A script of
 * the site says so with what a form cannot send: a JSON content type, an `X-Requested-With` or
 * `X-Store-*` header, or the session as a bearer token.
 */
import { describeEngines } from '@store/test-kit';
import { afterEach, expect, it } from 'vitest';
import { type ServedAuth, serveAuth } from './support/served-auth';

const ADA = 'ada@example.test';
const ROUTES = ['/auth/logout', '/auth/logout-everywhere'];

/** Signs Ada in through the API: her session token. */
async function signIn(served: ServedAuth): Promise<string> {
  const json = { 'content-type': 'application/json' };
  await fetch(`${served.url}/auth/magic-code/`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: ADA }),
  });
  const verified = await fetch(`${served.url}/auth/magic-code/verify`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: ADA, code: served.mailer.lastCodeTo(ADA) }),
  });
  return ((await verified.json()) as { token: string }).token;
}

async function live(served: ServedAuth, token: string): Promise<boolean> {
  return (await fetch(`${served.url}/auth/session`, { headers: { cookie: `store_session=${token}` } })).ok;
}

describeEngines('sign-out CSRF', (engine) => {
  const servers: ServedAuth[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((served) => served.close()));
  });
  async function start() {
    const served = await serveAuth(await engine.createDb());
    servers.push(served);
    return served;
  }

  it.each(ROUTES)('a cross-site form cannot sign a user out (%s): 403 saying what to send', async (route) => {
    const served = await start();
    const token = await signIn(served);
    const forms = [
      ['application/x-www-form-urlencoded', 'a=1'],
      ['multipart/form-data; boundary=x', '--x--'],
      ['text/plain', '{"a":1}'],
      [undefined, undefined],
    ];
    // With the cookie, and without it: a browser keeps a SameSite=Lax cookie off a cross-site
    // post, but would take the answer's cookie clearing all the same.
    const sessions: Record<string, string>[] = [{ cookie: `store_session=${token}` }, {}];
    for (const [[type, body], session] of forms.flatMap((form) => sessions.map((s) => [form, s] as const))) {
      const posted = await fetch(`${served.url}${route}`, {
        method: 'POST',
        headers: {
          ...session,
          origin: 'https://evil.example',
          'sec-fetch-site': 'cross-site',
          ...(type === undefined ? {} : { 'content-type': type }),
        },
        body,
      });
      expect([type, session, posted.status]).toEqual([type, session, 403]);
      expect(posted.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(posted.headers.get('set-cookie')).toBeNull();
      const problem = (await posted.json()) as { code: string; detail: string };
      expect(problem.code).toBe('custom_header_required');
      expect(problem.detail).toContain('Content-Type: application/json');
      expect(problem.detail).toContain('X-Requested-With');
    }
    expect(await live(served, token)).toBe(true);
  });

  it.each([
    ['a JSON content type, empty body', { 'content-type': 'application/json' }],
    ['a JSON body', { 'content-type': 'application/json; charset=utf-8' }, '{}'],
    ['X-Requested-With', { 'x-requested-with': 'XMLHttpRequest' }],
    ['an X-Store-* header', { 'x-store-client': 'web' }],
  ] as Array<[string, Record<string, string>, string?]>)(
    'a script of the site signs out with the cookie and %s',
    async (_label, headers, body) => {
      const served = await start();
      for (const route of ROUTES) {
        const token = await signIn(served);
        const out = await fetch(`${served.url}${route}`, {
          method: 'POST',
          headers: { cookie: `store_session=${token}`, ...headers },
          body,
        });
        expect(out.status).toBe(204);
        expect(out.headers.get('set-cookie')).toMatch(
          /^store_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/,
        );
        expect(await live(served, token)).toBe(false);
      }
    },
  );

  it('API clients sign out with the bearer token alone, as before; without a session the answers are as before', async () => {
    const served = await start();
    for (const route of ROUTES) {
      const token = await signIn(served);
      const out = await fetch(`${served.url}${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(out.status).toBe(204);
      expect(await live(served, token)).toBe(false);
    }
    const script = { 'x-requested-with': 'fetch' };
    expect((await fetch(`${served.url}/auth/logout`, { method: 'POST', headers: script })).status).toBe(204);
    const everywhere = await fetch(`${served.url}/auth/logout-everywhere`, {
      method: 'POST',
      headers: script,
    });
    expect(everywhere.status).toBe(401);
    expect(await everywhere.json()).toMatchObject({ code: 'unauthorized' });
  });
});
