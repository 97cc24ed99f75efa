/**
 * The `/docs` page as a person sees it: a real HTTP server with the store mounted under `/api`,
 * the page opened in headless Chromium (Debian's `chromium` package; `.ci/run` installs it).
 * Without Chromium the suite is skipped by name, with the reason.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStoreHandler } from '../../src/http/handler';
import { writeNodeResponse } from '../../src/http/node-response';
import type { StoreHandler } from '../../src/model/http';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MOUNT = '/api';
const found = existsSync(CHROMIUM);
const title = found
  ? 'the /docs page in headless Chromium'
  : `the /docs page in headless Chromium skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;

/** Serves `store` under {@link MOUNT}, as an adapter would; anything else is a 404. */
function serve(store: StoreHandler): Promise<Server> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const inside = url.pathname.startsWith(`${MOUNT}/`);
    const path = url.pathname.slice(MOUNT.length);
    const answer = inside
      ? await store({
          method: req.method ?? 'GET',
          path,
          rawQuery: url.search,
          headers: req.headers,
          body: req,
          mountPath: MOUNT,
        })
      : null;
    if (answer === null) res.writeHead(404).end();
    else writeNodeResponse(res, answer);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe.skipIf(!found)(title, () => {
  let store: StoreHandler;
  let server: Server;
  let browser: Browser;

  beforeAll(async () => {
    store = createStoreHandler({
      openapi: { title: 'Notes API', version: '2.0.0' },
      resources: {
        notes: { access: 'public', schema: { type: 'object', properties: { title: { type: 'string' } } } },
        tasks: { access: 'public' },
      },
    });
    server = await serve(store);
    browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless=new'] });
  });

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await store?.close();
  });

  it("shows every resource of /api/openapi.json, loading only the store's own files, without a console error", async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    const loaded: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warn')
        problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error}`));
    page.on('requestfailed', (request) =>
      problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`),
    );
    page.on('request', (request) => loaded.push(request.url()));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const answer = await page.goto(`${origin}${MOUNT}/docs`, { waitUntil: 'networkidle0' });
    expect(answer?.status()).toBe(200);
    await page.waitForSelector('.opblock-tag', { timeout: 15_000 });
    const text = await page.evaluate(() => document.body.textContent);
    expect(text).toContain('Notes API');
    expect(text).toMatch(/notes/);
    expect(text).toMatch(/tasks/);
    expect(text).toMatch(/other resources/);
    await page.screenshot({ path: '/tmp/docs-page.png', fullPage: false });
    const fetched = loaded.filter((url) => !url.startsWith('data:')).map((url) => url.replace(origin, ''));
    expect(fetched).toEqual(
      expect.arrayContaining([
        `${MOUNT}/docs`,
        `${MOUNT}/openapi.json`,
        expect.stringMatching(/^\/api\/docs\/swagger-ui-bundle\.js\?v=/),
      ]),
    );
    expect(fetched.filter((url) => !url.startsWith(`${MOUNT}/`))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
