/**
 * Login CSRF as a victim's browser meets it: headless Chromium (Debian's `chromium` package), the
 * store on one origin (`http://127.0.0.1:<port>/api`) and an attacker's site on another
 * (`http://localhost:<port>`). Without Chromium the suite is skipped by name, with the reason.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmbeddedDb } from '@store/embedded';
import puppeteer, { type Browser, type HTTPResponse, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { navigation, type ServedAuth, serveAuth, setCookie } from './support/served-auth';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const found = existsSync(CHROMIUM);
const title = found
  ? 'login CSRF on the code link in headless Chromium'
  : `login CSRF on the code link in headless Chromium skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;

const ADA = 'ada@example.test';
const MALLORY = 'mallory@example.test';

/** A browser start takes a few seconds on a busy two-core machine; every step after it is quick. */
const BOUND = { timeout: 20_000 };

/**
 * The attacker's site: `/` is an empty page; `/form?action=&confirm=` a form that posts itself at
 * once to `action` (with a `confirm` field when given).
 */
function attackerSite(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const quote = (text: string) => text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
    const action = url.searchParams.get('action') ?? '';
    const confirm = url.searchParams.get('confirm');
    const field = confirm === null ? '' : `<input type="hidden" name="confirm" value="${quote(confirm)}">`;
    const body =
      url.pathname === '/form'
        ? `<form method="post" action="${quote(action)}">${field}</form><script>document.forms[0].submit()</script>`
        : '<p>Cute cats</p>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>${body}`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Asks for a code from the attacker's own client: the link of the mail. */
async function attackersLink(served: ServedAuth): Promise<string> {
  await fetch(`${served.url}/auth/magic-code/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: MALLORY }),
  });
  return `${served.url}/auth/magic-code/${encodeURIComponent(MALLORY)}/${served.mailer.lastCodeTo(MALLORY)}`;
}

describe.skipIf(!found)(title, BOUND, () => {
  let served: ServedAuth;
  let attacker: Server;
  let attackerOrigin: string;
  let browser: Browser;

  beforeAll(async () => {
    served = await serveAuth(createEmbeddedDb());
    attacker = await attackerSite();
    attackerOrigin = `http://localhost:${(attacker.address() as AddressInfo).port}`;
    browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless=new'] });
  }, BOUND.timeout);

  afterAll(async () => {
    await browser?.close();
    attacker?.closeAllConnections();
    await new Promise((resolve) => (attacker ? attacker.close(resolve) : resolve(undefined)));
    await served?.close();
  });

  /** A fresh browser profile (its own cookies): the victim's, or another device's. */
  async function freshBrowser(): Promise<Page> {
    const context = await browser.createBrowserContext();
    return context.newPage();
  }

  /** Opens the attacker's page at `page`, whose form posts itself to `action`: the answer to that post. */
  async function formPost(victim: Page, page: string, action: string): Promise<HTTPResponse> {
    const answered = victim.waitForResponse(
      (response) => response.url() === action && response.request().method() === 'POST',
    );
    await victim.goto(page);
    return answered;
  }

  /** Who this browser is signed in as: the address, or `null`. */
  async function signedInAs(page: Page): Promise<string | null> {
    const answer = await page.goto(`${served.url}/auth/session`);
    if (answer === null) throw new Error('no answer to GET /auth/session');
    if (answer.status() === 401) return null;
    return ((await answer.json()) as { user: { email: string } }).user.email;
  }

  it("a page of another site sending the victim to the attacker's code link gets the confirmation, not a session", async () => {
    const link = await attackersLink(served);
    const victim = await freshBrowser();
    await victim.goto(`${attackerOrigin}/`);
    const [landed] = await Promise.all([
      victim.waitForNavigation(),
      victim.evaluate((to) => {
        (globalThis as unknown as { location: { href: string } }).location.href = to;
      }, link),
    ]);
    expect(landed?.status()).toBe(200);
    expect(victim.url()).toBe(link);
    expect(await victim.$eval('h1', (h1) => h1.textContent)).toBe(`Sign in as ${MALLORY}?`);
    expect(await signedInAs(victim)).toBeNull();
    expect(await served.db.collection('svc-magic-codes').findOne({ email: MALLORY })).toMatchObject({
      state: 'active',
    });
    await victim.browserContext().close();
  });

  it("a cross-site form auto-submitted to the code link (with the attacker's own proof) does not sign the victim in", async () => {
    const link = await attackersLink(served);
    // The attacker opens the link in their own browser to get a proof to send.
    const own = await fetch(link, { headers: navigation('none') });
    const proof = /name="confirm" value="([0-9a-f]{64})"/.exec(await own.text())?.[1] ?? '';
    expect(setCookie(own, 'store_code_browser')).toBeDefined();
    const victim = await freshBrowser();
    // The victim was sent to the link first (so has a browser cookie), then the form fires.
    await victim.goto(link);
    for (const confirm of [proof, null]) {
      const query = new URLSearchParams({ action: link, ...(confirm === null ? {} : { confirm }) });
      const posted = await formPost(victim, `${attackerOrigin}/form?${query}`, link);
      expect(posted.status()).toBe(403);
      expect(await posted.json()).toMatchObject({ code: 'confirmation_required' });
      expect(await signedInAs(victim)).toBeNull();
    }
    await victim.browserContext().close();
  });

  it('the browser that asked signs in with one click; another browser signs in with the button of the page', async () => {
    const asking = await freshBrowser();
    await asking.goto(`${served.url}/auth/session`);
    const status = await asking.evaluate(async (email) => {
      const asked = await fetch('/api/auth/magic-code/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      return asked.status;
    }, ADA);
    expect(status).toBe(202);
    const link = `${served.url}/auth/magic-code/${encodeURIComponent(ADA)}/${served.mailer.lastCodeTo(ADA)}`;
    expect((await asking.goto(link))?.status()).toBe(200);
    expect(await signedInAs(asking)).toBe(ADA);

    await fetch(`${served.url}/auth/magic-code/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADA }),
    });
    const other = await freshBrowser();
    await other.goto(
      `${served.url}/auth/magic-code/${encodeURIComponent(ADA)}/${served.mailer.lastCodeTo(ADA)}`,
    );
    expect(await other.$eval('h1', (h1) => h1.textContent)).toBe(`Sign in as ${ADA}?`);
    const [confirmed] = await Promise.all([other.waitForNavigation(), other.click('button')]);
    expect(confirmed?.status()).toBe(200);
    expect(await signedInAs(other)).toBe(ADA);

    // A form of another site posting to sign-out leaves the session alone.
    const logout = `${served.url}/auth/logout`;
    const out = await formPost(
      other,
      `${attackerOrigin}/form?${new URLSearchParams({ action: logout })}`,
      logout,
    );
    expect(out.status()).toBe(403);
    expect(await signedInAs(other)).toBe(ADA);
    await asking.browserContext().close();
    await other.browserContext().close();
  });
});
