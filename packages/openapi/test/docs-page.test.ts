/**
 * The `/docs` page as a person sees it: a real HTTP server with the store mounted under `/api`,
 * the page opened in headless Chromium (Debian's `chromium` package; `.ci/run` installs it).
 * Without Chromium the suite is skipped by name, with the reason.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStoreHandler, type StoreHandler, writeNodeResponse } from '@store/core';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapi } from '../src/index';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MOUNT = '/api';
const found = existsSync(CHROMIUM);
const title = found
  ? 'the /docs page in headless Chromium'
  : `the /docs page in headless Chromium skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;

/** helmet's default Content-Security-Policy, as a host application might send it on every answer. */
const HELMET_POLICY =
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'";

/** Serves `store` under {@link MOUNT}, as an adapter would, with the host's `headers`; anything else is a 404. */
function serve(store: StoreHandler, headers: Record<string, string>): Promise<Server> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const inside = url.pathname.startsWith(`${MOUNT}/`);
    const request = {
      method: req.method ?? 'GET',
      path: url.pathname.slice(MOUNT.length),
      rawQuery: url.search,
      headers: req.headers,
      body: req,
      mountPath: MOUNT,
    };
    const answer = inside ? await store(request) : null;
    if (answer === null) res.writeHead(404).end();
    else writeNodeResponse(res, answer);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** A browser start and a page load take seconds on a busy two-core machine. */
const SLOW = { timeout: 60_000 };

describe.skipIf(!found)(title, SLOW, () => {
  let store: StoreHandler;
  let browser: Browser;
  const servers: Server[] = [];

  beforeAll(async () => {
    store = createStoreHandler({
      plugins: [openapi({ title: 'Notes API', version: '2.0.0' })],
      resources: {
        notes: { access: 'owner', schema: { type: 'object', properties: { title: { type: 'string' } } } },
        tasks: { access: 'public' },
      },
    });
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless=new'],
      defaultViewport: { width: 1280, height: 900 },
    });
  }, SLOW.timeout);

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await store?.close();
  });

  it.each([
    ['', {}],
    [
      ", under a host's Content-Security-Policy (helmet's default)",
      { 'content-security-policy': HELMET_POLICY },
    ],
  ])(
    "shows every resource, loading only the store's own files, without a console error%s",
    async (_, headers) => {
      const server = await serve(store, headers);
      servers.push(server);
      const page = await browser.newPage();
      const problems: string[] = [];
      const loaded: string[] = [];
      page.on('console', (message) => {
        if (['error', 'warn'].includes(message.type()))
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
      const tags = await page.$$eval('.opblock-tag', (nodes) =>
        nodes.map((node) => node.getAttribute('data-tag')),
      );
      expect(tags).toEqual(['notes', 'tasks', 'other resources']);
      expect(await page.$eval('.info .title', (node) => node.textContent)).toMatch(/^Notes API/);
      if (Object.keys(headers).length === 0) await page.screenshot({ path: '/tmp/docs-page.png' });
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
      await page.close();
    },
  );

  it('runs a list request from the page ("Try it out", every parameter left as offered)', async () => {
    const server = await serve(store, {});
    servers.push(server);
    const page = await browser.newPage();
    const sent: string[] = [];
    page.on('request', (request) => sent.push(request.url()));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await page.goto(`${origin}${MOUNT}/docs`, { waitUntil: 'networkidle0' });
    const operation = '#operations-tasks-list_tasks';
    // Each control appears once the one before it was handled: wait for it, never race the page.
    for (const control of ['.opblock-summary-control', '.try-out__btn', '.execute']) {
      const element = await page.waitForSelector(`${operation} ${control}`, { visible: true });
      await element?.click();
    }
    const status = await page.waitForSelector(
      `${operation} .live-responses-table tr.response .response-col_status`,
    );
    expect(await status?.evaluate((node) => node.textContent?.trim())).toBe('200');
    expect(sent.filter((url) => url.includes('/tasks')).map((url) => url.replace(origin, ''))).toEqual([
      `${MOUNT}/tasks?%24limit=10`,
    ]);
    await page.close();
  });
});
