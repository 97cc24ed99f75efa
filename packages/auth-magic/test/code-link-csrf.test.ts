/**
 * Login CSRF on the code link, over real HTTP: a page of another site sends the victim's browser
 * to the attacker's own code link (`GET /auth/magic-code/<attacker's address>/<code>`) to sign it
 * in to the attacker's account. Only the browser that asked for the code signs in with one click;
 * any other browser gets a confirmation naming the account, which only its own page can give.
 */
import { describeEngines } from '@store/test-kit';
import { afterEach, expect, it } from 'vitest';
import { MOUNT, navigation, type ServedAuth, serveAuth, setCookie } from './support/served-auth';

const ADA = 'ada@example.test';
const MALLORY = 'mallory@example.test';
const BROWSER = 'store_code_browser';

/** The state sign-in keeps: compared before and after a request that must change nothing. */
async function snapshot(served: ServedAuth) {
  const all = (name: string) =>
    served.db
      .collection(name)
      .find({}, { sort: { _id: 1 } })
      .toArray();
  return {
    codes: await all('svc-magic-codes'),
    users: await all('users'),
    sessions: await all('svc-sessions'),
  };
}

/** Asks for a code for `email` (JSON, as a script or an app does): the browser cookie it set and the mailed link. */
async function askCode(served: ServedAuth, email: string, headers: Record<string, string> = {}) {
  const asked = await fetch(`${served.url}/auth/magic-code/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email }),
  });
  expect(asked.status, await asked.clone().text()).toBe(202);
  const code = served.mailer.lastCodeTo(email);
  const link = `${served.url}/auth/magic-code/${encodeURIComponent(email)}/${code}`;
  return { browser: setCookie(asked, BROWSER), asked, code, link };
}

/** The proof a confirmation page carries in its form. */
function proofOf(page: string): string {
  const proof = /name="confirm" value="([0-9a-f]{64})"/.exec(page)?.[1];
  if (proof === undefined) throw new Error(`no confirmation form in: ${page}`);
  return proof;
}

/** Who a cookie or bearer session belongs to: the address, or `null` when it is no live session. */
async function signedInAs(served: ServedAuth, headers: Record<string, string>): Promise<string | null> {
  const reply = await fetch(`${served.url}/auth/session`, { headers });
  if (reply.status === 401) return null;
  return ((await reply.json()) as { user: { email: string } }).user.email;
}

describeEngines('login CSRF on the code link', (engine) => {
  const servers: ServedAuth[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((served) => served.close()));
  });
  async function start(auth = {}) {
    const served = await serveAuth(await engine.createDb(), auth);
    servers.push(served);
    return served;
  }

  it('a code link opened in a browser that did not ask for it changes nothing and asks to confirm, naming the account', async () => {
    const served = await start();
    const attacker = await askCode(served, MALLORY);
    // The victim's browser once asked for a code of its own: its browser id is no key to Mallory's.
    const victim = await askCode(served, ADA);
    const before = await snapshot(served);
    for (const cookie of [undefined, victim.browser]) {
      const opened = await fetch(attacker.link, {
        headers: { ...navigation('cross-site'), ...(cookie === undefined ? {} : { cookie }) },
        redirect: 'manual',
      });
      const page = await opened.text();
      expect(opened.status, page).toBe(200);
      expect(opened.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page).toContain(`<h1>Sign in as ${MALLORY}?</h1>`);
      expect(page).toMatch(/<form method="post"><input type="hidden" name="confirm" value="[0-9a-f]{64}">/);
      expect(setCookie(opened, 'store_session')).toBeUndefined();
      // The page itself cannot be framed (no clickjacking), cached, or leak the link as a referrer.
      expect(opened.headers.get('x-frame-options')).toBe('DENY');
      expect(opened.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(opened.headers.get('content-security-policy')).toContain("form-action 'self'");
      expect(opened.headers.get('referrer-policy')).toBe('no-referrer');
      expect(opened.headers.get('cache-control')).toBe('no-store');
    }
    expect(await snapshot(served)).toEqual(before);
    // Mallory's code was not used: it still signs in (Mallory's own browser, with one click).
    const own = await fetch(attacker.link, {
      headers: { ...navigation('none'), cookie: attacker.browser ?? '' },
    });
    expect(own.status).toBe(200);
  });

  it('the same browser signs in with one click', async () => {
    const served = await start();
    const { asked, browser, link } = await askCode(served, ADA);
    expect(asked.headers.get('set-cookie')).toMatch(
      new RegExp(
        `^${BROWSER}=[\\w-]{43}; Path=${MOUNT}/auth/magic-code; HttpOnly; SameSite=Lax; Max-Age=600$`,
      ),
    );
    // Opened from the mail (a navigation no page started), with the cookie set when it asked.
    const opened = await fetch(link, { headers: { ...navigation('none'), cookie: browser ?? '' } });
    expect(opened.status).toBe(200);
    const session = setCookie(opened, 'store_session');
    expect(session).toMatch(/^store_session=[\w-]{43}$/);
    expect(await signedInAs(served, { cookie: session ?? '' })).toBe(ADA);
    expect((await snapshot(served)).codes).toMatchObject([{ state: 'used' }]);
  });

  it('the same browser keeps its id across requests: every code it asked for signs it in with one click', async () => {
    const served = await start({ rateLimit: { perAddress: { max: 1 }, perIp: { max: 1000 } } });
    const first = await askCode(served, ADA);
    // Past the quota nothing is sent: the code already mailed is extended, and now also this browser's.
    const again = await fetch(`${served.url}/auth/magic-code/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: first.browser ?? '' },
      body: JSON.stringify({ email: ADA }),
    });
    expect(await again.json()).toMatchObject({ sent: false });
    expect(setCookie(again, BROWSER)).toBe(first.browser);
    const opened = await fetch(first.link, {
      headers: { ...navigation('none'), cookie: first.browser ?? '' },
    });
    expect(opened.status).toBe(200);
  });

  it("the confirmation page's button signs in the browser it was shown to", async () => {
    const served = await start({ magicCode: { redirectSuccess: '/welcome' } });
    const { link } = await askCode(served, ADA);
    // Opened on another device: no browser cookie yet; the page sets one and embeds its proof.
    const opened = await fetch(link, { headers: navigation('cross-site') });
    const browser = setCookie(opened, BROWSER);
    expect(opened.headers.get('set-cookie')).toMatch(
      new RegExp(
        `^${BROWSER}=[\\w-]{43}; Path=${MOUNT}/auth/magic-code; HttpOnly; SameSite=Lax; Max-Age=600$`,
      ),
    );
    const confirmed = await fetch(link, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: browser ?? '',
        origin: 'null', // a no-referrer page's own form
        'sec-fetch-site': 'same-origin',
      },
      body: `confirm=${proofOf(await opened.text())}`,
      redirect: 'manual',
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('/welcome');
    expect(await signedInAs(served, { cookie: setCookie(confirmed, 'store_session') ?? '' })).toBe(ADA);
  });

  it('a cross-site form cannot confirm a code link', async () => {
    const served = await start();
    const attacker = await askCode(served, MALLORY);
    // Mallory opens her own link in her own browser: her cookie and the proof that goes with it.
    const own = await fetch(attacker.link, { headers: navigation('cross-site') });
    const mallorysCookie = setCookie(own, BROWSER) ?? '';
    const mallorysProof = proofOf(await own.text());
    // The victim's browser has a browser id of its own (it once opened a confirmation page).
    const victimPage = await fetch(attacker.link, { headers: navigation('cross-site') });
    const victimsCookie = setCookie(victimPage, BROWSER) ?? '';
    const form = 'application/x-www-form-urlencoded';
    const crossSite = {
      'content-type': form,
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    };
    const attempts: Array<[string, Record<string, string>, string]> = [
      ['a plain form post, no proof, no cookie', crossSite, ''],
      ["Mallory's proof with the victim's cookie", { ...crossSite, cookie: victimsCookie }, mallorysProof],
      [
        "Mallory's proof, the victim's cookie, no fetch metadata",
        { 'content-type': form, cookie: victimsCookie },
        mallorysProof,
      ],
      [
        "Mallory's proof and cookie (planted), posted by another site",
        { ...crossSite, cookie: mallorysCookie },
        mallorysProof,
      ],
      [
        "Mallory's proof and cookie, an Origin of another site",
        { 'content-type': form, cookie: mallorysCookie, origin: 'https://evil.example' },
        mallorysProof,
      ],
      ['a JSON body with the proof', { 'content-type': 'application/json', cookie: mallorysCookie }, ''],
    ];
    const before = await snapshot(served);
    for (const [label, headers, proof] of attempts) {
      const body =
        headers['content-type'] === form ? `confirm=${proof}` : JSON.stringify({ confirm: mallorysProof });
      const posted = await fetch(attacker.link, { method: 'POST', headers, body, redirect: 'manual' });
      const problem = (await posted.json()) as { code: string; detail: string };
      expect([label, posted.status], JSON.stringify(problem)).toEqual([
        label,
        headers['content-type'] === form ? 403 : 415,
      ]);
      if (posted.status === 403) {
        expect(problem).toMatchObject({ code: 'confirmation_required' });
        expect(problem.detail).toMatch(/press the button on its page/);
      }
      expect(setCookie(posted, 'store_session')).toBeUndefined();
    }
    expect(await snapshot(served)).toEqual(before);
  });

  it('a code link with a wrong code is a counted miss in a browser too (401 invalid_code), showing no page', async () => {
    const served = await start();
    const { code } = await askCode(served, ADA);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const opened = await fetch(`${served.url}/auth/magic-code/${ADA}/${wrong}`, {
      headers: navigation('cross-site'),
    });
    expect(opened.status).toBe(401);
    expect(await opened.json()).toMatchObject({ code: 'invalid_code' });
    expect((await snapshot(served)).codes).toMatchObject([{ state: 'active', attempts: 1 }]);
  });

  it('JSON clients sign in through POST /auth/magic-code/verify and through the code link without a browser, as before', async () => {
    const served = await start();
    const first = await askCode(served, ADA);
    const verified = await fetch(`${served.url}/auth/magic-code/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: ADA, code: first.code }),
    });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toMatchObject({
      token: expect.stringMatching(/^[\w-]{43}$/),
      user: { email: ADA },
    });
    const asked: Record<string, string>[] = [
      { accept: 'application/json' },
      {},
      { 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of asked) {
      const { link } = await askCode(served, ADA);
      const opened = await fetch(link, { headers });
      expect(opened.status).toBe(200);
      const { token } = (await opened.json()) as { token: string };
      expect(setCookie(opened, 'store_session')).toBe(`store_session=${token}`);
      expect(await signedInAs(served, { authorization: `Bearer ${token}` })).toBe(ADA);
    }
  });

  it("JSON asked by another site's page changes nothing: { status: 'confirm', email }", async () => {
    const served = await start();
    const { link } = await askCode(served, MALLORY);
    const before = await snapshot(served);
    const opened = await fetch(link, {
      headers: { accept: 'application/json', 'sec-fetch-site': 'cross-site' },
    });
    expect(opened.status).toBe(200);
    expect(await opened.json()).toEqual({ status: 'confirm', email: MALLORY });
    expect(setCookie(opened, 'store_session')).toBeUndefined();
    expect(await snapshot(served)).toEqual(before);
  });
});
