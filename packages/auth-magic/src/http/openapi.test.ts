import { compileErrors, validate } from '@readme/openapi-parser';
import { createStoreHandler, type ResourceConfig, type StoreConfig, type StoreHandler } from '@store/core';
import { openapi } from '@store/openapi';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { magicAuth } from './plugin';

/** The parsed document, walked without checks: a missing member fails the assertion that reads it. */
// biome-ignore lint/suspicious/noExplicitAny: the tests read deep into parsed JSON
type Json = Record<string, any>;

const handlers: StoreHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handle) => handle.close()));
});

const base = {
  plugins: [magicAuth, openapi()],
  baseUrl: 'https://notes.test/api',
  secret: 'a-secret-of-16-chars+',
  logger: { error: vi.fn(), warn: vi.fn() },
} satisfies StoreConfig;

async function described(user: ResourceConfig): Promise<Json> {
  const handle = createStoreHandler({ ...base, resources: { user, notes: { access: 'owner' } } });
  handlers.push(handle);
  const answer = await handle({ method: 'GET', path: '/openapi.json', rawQuery: '', headers: {} });
  expect(answer?.status).toBe(200);
  return JSON.parse(answer?.body ?? '');
}

describe('the sign-in routes in /openapi.json', () => {
  it('are a valid OpenAPI 3.1 document with both strategies', async () => {
    const document = await described({ auth: { magicCode: {}, magicLink: {} } });
    const result = await validate(document as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : compileErrors(result)).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('lists the routes of the enabled strategies under /auth', async () => {
    const { paths } = await described({ auth: { magicCode: {} } });
    const auth = Object.keys(paths).filter((path) => path.startsWith('/auth/'));
    expect(auth).toEqual([
      '/auth/magic-code',
      '/auth/magic-code/verify',
      '/auth/magic-code/{email}/{code}',
      '/auth/session',
      '/auth/logout',
      '/auth/logout-everywhere',
    ]);
    expect(paths['/auth/magic-code/verify'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/auth.CodeVerification',
    });
    const linked = await described({ auth: { magicLink: {} } });
    expect(Object.keys(linked.paths)).toEqual(
      expect.arrayContaining(['/auth/magic-link/{token}', '/auth/magic-token/{pollToken}']),
    );
    expect(Object.keys(linked.paths)).not.toContain('/auth/magic-code');
  });

  it('offers the session cookie wherever a session is needed, and knows the sign-in error codes', async () => {
    const { paths, components } = await described({ auth: { magicCode: {} } });
    expect(components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'store_session',
    });
    expect(paths['/notes'].get.security).toEqual([{ sessionToken: [] }, { sessionCookie: [] }]);
    expect(paths['/users/{id}'].get.security).toEqual([{ sessionToken: [] }, { sessionCookie: [] }]);
    expect(paths['/users'].post).toBeUndefined();
    expect(components.schemas.Problem.properties.code.anyOf[0].enum).toEqual(
      expect.arrayContaining(['invalid_code', 'token_expired', 'too_many_requests']),
    );
  });
});
