import { createStoreHandler, type StoreConfig, type StoreHandler } from '@store/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { magicAuth } from './plugin';

const handlers: StoreHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handle) => handle.close()));
});

/** A store whose per-IP send limit allows one code a minute, behind `trustedProxies`. */
function store(trustedProxies: string[]): StoreHandler {
  const config = {
    plugins: [magicAuth],
    baseUrl: 'https://notes.test/api',
    secret: 'a-secret-of-16-chars+',
    logger: { error: vi.fn(), warn: vi.fn() },
    trustedProxies,
    resources: {
      user: {
        auth: {
          magicCode: {},
          mailer: { sendMail: async () => ({}) },
          rateLimit: { perIp: { max: 1, window: '1 minute' } },
        },
      },
    },
  } satisfies StoreConfig;
  const handle = createStoreHandler(config);
  handlers.push(handle);
  return handle;
}

/** The status of `POST /auth/magic-code` for a new address, from `ip` with `X-Forwarded-For: forwarded`. */
async function requestCode(handle: StoreHandler, ip: string, forwarded: string, n: number): Promise<number> {
  const answer = await handle({
    method: 'POST',
    path: '/auth/magic-code',
    rawQuery: '',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded },
    body: JSON.stringify({ email: `u${n}@example.test` }),
    ip,
  });
  return answer?.status ?? 0;
}

describe("the per-IP send limit behind the store's trustedProxies", () => {
  it.each<[string, string[], readonly (readonly [string, string])[], number[]]>([
    [
      'counts each forwarded client of a trusted proxy apart',
      ['10.0.0.0/8'],
      [
        ['10.0.0.1', '198.51.100.1'],
        ['10.0.0.1', '198.51.100.2'],
        ['10.0.0.2', '6.6.6.6, 198.51.100.1'],
      ],
      [202, 202, 429],
    ],
    [
      'ignores X-Forwarded-For from a peer that is no trusted proxy',
      ['10.0.0.0/8'],
      [
        ['203.0.113.9', '198.51.100.1'],
        ['203.0.113.9', '198.51.100.2'],
      ],
      [202, 429],
    ],
    [
      'ignores X-Forwarded-For without trusted proxies',
      [],
      [
        ['10.0.0.1', '198.51.100.1'],
        ['10.0.0.1', '198.51.100.2'],
      ],
      [202, 429],
    ],
  ])('%s', async (_case, proxies, requests, statuses) => {
    const handle = store(proxies);
    const answers: number[] = [];
    for (const [i, [ip, forwarded]] of requests.entries())
      answers.push(await requestCode(handle, ip, forwarded, i));
    expect(answers).toEqual(statuses);
  });
});
