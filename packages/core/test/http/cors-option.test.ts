/** The `cors` option is checked at createStore: a bad value is an invalid_config naming `cors`. */

import { createEmbeddedDb } from '@store/embedded';
import { describe, expect, it } from 'vitest';
import { resolveStoreOptions } from '../../src/config/options';
import { createStoreHandler } from '../../src/handler/handler';
import { optionError } from '../support/option-error';

describe('the cors option', () => {
  it('resolves true to any origin without credentials, and a list to exactly those origins', () => {
    expect(resolveStoreOptions({ cors: true }).cors).toEqual({ origins: '*', credentials: false });
    expect(resolveStoreOptions({}).cors).toBeUndefined();
    const listed = resolveStoreOptions({
      cors: { origins: ['https://a.example', 'http://localhost:5173'], credentials: true },
    });
    expect(listed.cors).toEqual({
      origins: new Set(['https://a.example', 'http://localhost:5173']),
      credentials: true,
    });
  });

  it.each([
    ['a string', 'https://a.example', /expected true, false or/],
    ['an empty origin list', { origins: [] }, /origins must be/],
    ['an origin with a path', { origins: ['https://a.example/app'] }, /origins must be/],
    ['an unknown key', { origins: '*', allowHeaders: ['x'] }, /unknown key "allowHeaders"/],
    ['credentials that is not a boolean', { origins: '*', credentials: 'yes' }, /cors\.credentials/],
  ])('refuses %s', (_, cors, message) => {
    const failure = optionError({ cors });
    expect(failure).toMatchObject({ code: 'invalid_config' });
    expect(String(failure.option)).toMatch(/^cors/);
    expect(failure.message).toMatch(message);
  });

  it('resolves a function of the origin, and asks it for each request', async () => {
    const local = (origin: string) => new URL(origin).hostname === 'localhost';
    const resolved = resolveStoreOptions({ cors: { origins: local } }).cors;
    expect(resolved?.credentials).toBe(false);
    expect(typeof resolved?.origins).toBe('function');
    const handle = createStoreHandler({ db: createEmbeddedDb(), cors: { origins: local } });
    await handle.ready;
    const preflight = (origin: string) =>
      handle({
        method: 'OPTIONS',
        path: '/posts',
        rawQuery: '',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
    const allowed = await preflight('http://localhost:5173');
    expect(allowed?.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(allowed?.headers.vary).toMatch(/origin/i);
    const refused = await preflight('https://evil.example');
    expect(refused?.headers['access-control-allow-origin']).toBeUndefined();
    await handle.close();
  });

  it('allows nothing, and logs it, when the origin function throws; allows nothing when it answers anything but true', async () => {
    const throwing = () => {
      throw new Error('broken');
    };
    const logged: unknown[][] = [];
    const logger = { ...console, error: (...args: unknown[]) => logged.push(args) };
    for (const origins of [throwing, () => 'yes' as unknown as boolean]) {
      const handle = createStoreHandler({ db: createEmbeddedDb(), cors: { origins }, logger });
      await handle.ready;
      const answer = await handle({
        method: 'GET',
        path: '/posts',
        rawQuery: '',
        headers: { origin: 'http://localhost:5173' },
      });
      expect(answer?.status).toBe(200);
      expect(answer?.headers['access-control-allow-origin']).toBeUndefined();
      await handle.close();
    }
    // The throwing function is logged, once per answer it was asked for; `'yes'` is not an error.
    expect(logged).toHaveLength(1);
    expect(String(logged[0]?.[0])).toMatch(/cors\.origins threw/);
  });
});
