/**
 * `store serve` as a browser on the same machine meets it, in headless Chromium (Debian's
 * `chromium` package; `.ci/run` installs it): a page of another site must not read or change its
 * data, neither through CORS nor through DNS rebinding (a name of that site resolving to
 * 127.0.0.1); pages on localhost may. `evil.test` is mapped to 127.0.0.1 in the browser alone
 * (`--host-resolver-rules`), as a rebinding attacker's DNS would. Without Chromium the suite is
 * skipped by name, with the reason.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serving } from './serving';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const found = existsSync(CHROMIUM);
const title = found
  ? 'store serve and web pages in headless Chromium'
  : `store serve and web pages in headless Chromium skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
const fixture = fileURLToPath(new URL('./fixtures/db.json', import.meta.url));
const SEEDED = [
  { id: 1, title: 'json-server', author: 'typicode' },
  { id: 2, title: 'another post', author: 'typicode' },
];

/** Every browser test stays within this bound (a browser start takes seconds on a busy machine). */
const BOUND = { timeout: 19_000 };

/** What each attempt of a page ended with: the status the page could read, or `blocked`. */
type Attempts = Record<'read' | 'create' | 'remove' | 'plainPost', number | 'blocked' | 'opaque'>;

/**
 * From inside `page`: a GET, a JSON POST, a DELETE, and a `no-cors` text/plain POST (the one
 * write a browser sends without asking first) against the store at `store`.
 */
function attempt(page: Page, store: string): Promise<Attempts> {
  return page.evaluate(async (base) => {
    const outcome = async (request: Promise<Response>) => {
      try {
        const answer = await request;
        return answer.type === 'opaque' ? 'opaque' : answer.status;
      } catch {
        return 'blocked';
      }
    };
    const json = { 'content-type': 'application/json' };
    return {
      read: await outcome(fetch(`${base}/posts`)),
      create: await outcome(
        fetch(`${base}/posts`, { method: 'POST', headers: json, body: JSON.stringify({ title: 'planted' }) }),
      ),
      remove: await outcome(fetch(`${base}/posts/1`, { method: 'DELETE' })),
      plainPost: await outcome(
        fetch(`${base}/posts`, {
          method: 'POST',
          mode: 'no-cors',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ title: 'planted' }),
        }),
      ),
    } as const;
  }, store) as Promise<Attempts>;
}

/** A server of one empty page on 127.0.0.1, whatever name it is reached by: the other site. */
function pageServer(): Promise<Server> {
  const server = createServer((_, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>a page</title>');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const posts = async (base: string) => (await fetch(`${base}/posts`)).json();

describe.skipIf(!found)(title, BOUND, () => {
  let browser: Browser;
  let pages: Server;
  let pagePort: number;

  beforeAll(async () => {
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless=new', '--host-resolver-rules=MAP evil.test 127.0.0.1'],
    });
    pages = await pageServer();
    pagePort = (pages.address() as AddressInfo).port;
  }, BOUND.timeout);

  afterAll(async () => {
    await browser?.close();
    pages?.closeAllConnections();
    await new Promise((resolve) => pages?.close(resolve));
  });

  it('a page on another origin cannot read or change a local store serve; a page on localhost can', async () => {
    const { base, cli } = await serving(['--seed', fixture]);
    const page = await browser.newPage();
    try {
      await page.goto(`http://evil.test:${pagePort}/`);
      expect(await attempt(page, base)).toEqual({
        read: 'blocked',
        create: 'blocked',
        remove: 'blocked',
        plainPost: 'opaque',
      });
      expect(await posts(base)).toEqual(SEEDED);

      await page.goto(`http://localhost:${pagePort}/`);
      expect(await attempt(page, base)).toEqual({ read: 200, create: 201, remove: 200, plainPost: 'opaque' });
      expect(await posts(base)).toEqual([SEEDED[1], expect.objectContaining({ title: 'planted' })]);
    } finally {
      await page.close();
      await cli.stop();
    }
  });

  it('a request for a foreign Host name is refused (DNS rebinding), unless --allowed-hosts names it', async () => {
    const guarded = await serving(['--seed', fixture]);
    const opened = await serving(['--seed', fixture, '--allowed-hosts', 'evil.test']);
    const page = await browser.newPage();
    try {
      // The rebinding shape: the page's own origin is evil.test:<the store's port>, so its
      // requests are same-origin for the browser, and only the Host check stands in the way.
      const guardedPort = new URL(guarded.base).port;
      const refused = await page.goto(`http://evil.test:${guardedPort}/posts`);
      expect(refused?.status()).toBe(403);
      expect(await refused?.json()).toMatchObject({
        code: 'host_not_allowed',
        detail: expect.stringContaining('--allowed-hosts evil.test'),
      });
      expect(await attempt(page, `http://evil.test:${guardedPort}`)).toEqual({
        read: 403,
        create: 403,
        remove: 403,
        plainPost: 403,
      });
      expect(await posts(guarded.base)).toEqual(SEEDED);

      const allowed = await page.goto(`http://evil.test:${new URL(opened.base).port}/posts`);
      expect(allowed?.status()).toBe(200);
      expect(await allowed?.json()).toEqual(SEEDED);
    } finally {
      await page.close();
      await guarded.cli.stop();
      await opened.cli.stop();
    }
  });
});
