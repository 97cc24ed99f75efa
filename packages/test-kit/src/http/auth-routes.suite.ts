import { describe, expect, it } from 'vitest';
import { bearer, startAuth } from './auth-fixtures';
import type { Start } from './fixtures';
import { asObject, asString, expectPassedOn, expectProblem, field } from './harness';

const ADA = 'ada@example.test';

function methodTests(start: Start): void {
  it.each([
    ['GET', '/auth/magic-code/', 'POST'],
    ['PUT', '/auth/magic-code/verify', 'POST'],
    ['PUT', `/auth/magic-code/${ADA}/123456`, 'GET, HEAD, POST'],
    ['GET', '/auth/magic-link', 'POST'],
    ['DELETE', `/auth/magic-link/${'A'.repeat(43)}`, 'GET, HEAD, POST'],
    ['POST', `/auth/magic-token/${'A'.repeat(43)}`, 'GET'],
    ['POST', '/auth/session', 'GET, HEAD'],
    ['GET', '/auth/logout', 'POST'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const api = await startAuth(start);
    const reply = await api.send(method, path);
    expectProblem(reply, 405, 'method_not_allowed');
    expect(reply.headers.get('allow')).toBe(allow);
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });

  it('passes on /auth paths that name no auth route', async () => {
    const api = await startAuth(start);
    expectPassedOn(await api.send('GET', '/auth/unknown'));
    expectPassedOn(await api.send('GET', '/auth'));
  });

  it('mounts only the routes of the enabled strategies', async () => {
    const api = await startAuth(start, { auth: { magicLink: null } });
    expectPassedOn(await api.send('POST', '/auth/magic-link/', { json: { email: ADA } }));
    expect((await api.send('POST', '/auth/magic-code/', { json: { email: ADA } })).status).toBe(202);
  });

  it('answers HEAD on a code link with 204, changing nothing', async () => {
    const api = await startAuth(start);
    await api.send('POST', '/auth/magic-code/', { json: { email: ADA } });
    const before = await api.snapshot();
    const head = await api.send('HEAD', `/auth/magic-code/${ADA}/${api.mailbox.codeTo(ADA)}`);
    expect(head.status).toBe(204);
    expect(await api.snapshot()).toEqual(before);
  });
}

function exposureTests(start: Start): void {
  it('never routes auth state; the users collection answers each user their own document only', async () => {
    const api = await startAuth(start);
    const signIn = async (email: string) => {
      await api.send('POST', '/auth/magic-code/', { json: { email } });
      const verified = await api.send('POST', '/auth/magic-code/verify', {
        json: { email, code: api.mailbox.codeTo(email) },
      });
      return {
        id: asString(field(verified.json, 'user', '_id')),
        headers: bearer(asString(field(verified.json, 'token'))),
      };
    };
    const ada = await signIn(ADA);
    const bob = await signIn('bob@example.test');
    for (const path of ['/user', `/user/${ada.id}`, '/svc-sessions', '/svc-magic-codes']) {
      expectPassedOn(await api.send('GET', path, { headers: ada.headers }));
    }
    expectProblem(await api.send('GET', '/users'), 401, 'unauthorized');
    expectProblem(await api.send('GET', `/users/${ada.id}`), 401, 'unauthorized');
    expect((await api.send('GET', '/users', { headers: ada.headers })).json).toEqual([
      expect.objectContaining({ _id: ada.id, email: ADA }),
    ]);
    expect((await api.send('GET', '/users?$count=1', { headers: ada.headers })).json).toEqual({ count: 1 });
    expectProblem(await api.send('GET', `/users/${bob.id}`, { headers: ada.headers }), 404, 'not_found');
    expectProblem(await api.send('DELETE', `/users/${bob.id}`, { headers: ada.headers }), 404, 'not_found');
    expectProblem(
      await api.send('POST', '/users', { json: { email: 'eve@evil.test' }, headers: ada.headers }),
      403,
      'forbidden',
    );
    expect(await api.db.collection('users').countDocuments({})).toBe(2);
  });

  it('refuses every session of a user once blocked: they cannot unblock themselves', async () => {
    const api = await startAuth(start);
    await api.send('POST', '/auth/magic-code/', { json: { email: ADA } });
    const verified = await api.send('POST', '/auth/magic-code/verify', {
      json: { email: ADA, code: api.mailbox.codeTo(ADA) },
    });
    const path = `/users/${field(verified.json, 'user', '_id')}`;
    const headers = bearer(asString(field(verified.json, 'token')));
    await api.db.collection('users').updateOne({ email: ADA }, { $set: { blocked: true } });
    expectProblem(await api.send('PATCH', path, { json: { blocked: false }, headers }), 401, 'unauthorized');
    expectProblem(await api.send('GET', '/auth/session', { headers }), 401, 'unauthorized');
    expect(await api.db.collection('users').findOne({ email: ADA })).toMatchObject({ blocked: true });
    expect(await api.db.collection('svc-sessions').countDocuments({})).toBe(0);
    await api.send('POST', '/auth/magic-code/', { json: { email: ADA } });
    const again = await api.send('POST', '/auth/magic-code/verify', {
      json: { email: ADA, code: api.mailbox.codeTo(ADA) },
    });
    expectProblem(again, 403, 'account_blocked');
  });

  it('lets a user rename themselves but never change the e-mail address they sign in with', async () => {
    const api = await startAuth(start);
    await api.send('POST', '/auth/magic-code/', { json: { email: ADA } });
    const verified = await api.send('POST', '/auth/magic-code/verify', {
      json: { email: ADA, code: api.mailbox.codeTo(ADA) },
    });
    const path = `/users/${field(verified.json, 'user', '_id')}`;
    const headers = bearer(asString(field(verified.json, 'token')));
    const renamed = await api.send('PATCH', path, { json: { name: 'Ada' }, headers });
    expect(renamed.json).toMatchObject({ name: 'Ada', email: ADA });
    expectProblem(
      await api.send('PATCH', path, { json: { email: 'eve@evil.test' }, headers }),
      403,
      'forbidden',
    );
    expectProblem(
      await api.send('PUT', path, { json: { email: 'eve@evil.test' }, headers }),
      403,
      'forbidden',
    );
    const replaced = await api.send('PUT', path, { json: { name: 'A. Lovelace' }, headers });
    expect(replaced.json).toMatchObject({ name: 'A. Lovelace', email: ADA });
  });

  it('refuses $populate=svc-sessions with 400 invalid_relation, and $fill=users without a session with 401', async () => {
    const api = await startAuth(start);
    await api.send('POST', '/posts', { json: { _id: 1, user_id: 'u1' } });
    await api.db.collection('users').insertOne({ _id: 'u1', email: ADA, post_id: 1 });
    expectProblem(await api.send('GET', '/posts?$populate=svc-sessions'), 400, 'invalid_relation');
    expectProblem(await api.send('GET', '/posts/1?$populate=svc-sessions'), 400, 'invalid_relation');
    expectProblem(await api.send('GET', '/posts?$fill=users'), 401, 'unauthorized');
    expectProblem(await api.send('GET', '/posts/1?$populate=users'), 401, 'unauthorized');
  });

  it('keeps serving other resources, with or without a session', async () => {
    const api = await startAuth(start);
    expect((await api.send('POST', '/posts', { json: { _id: 1, title: 't' } })).status).toBe(201);
    const listed = await api.send('GET', '/posts', { headers: bearer('B'.repeat(43)) });
    expect(listed.json).toEqual([{ _id: 1, title: 't' }]);
  });
}

function abuseTests(start: Start): void {
  it('past the per-address quota extends the newest live code (202 sent: false), sending nothing', async () => {
    const api = await startAuth(start, { auth: { rateLimit: { perAddress: { max: 2, window: '1 hour' } } } });
    for (let i = 0; i < 2; i += 1) {
      expect((await api.send('POST', '/auth/magic-code/', { json: { email: ADA } })).status).toBe(202);
    }
    const mails = api.mailbox.count();
    const again = await api.send('POST', '/auth/magic-code/', { json: { email: ADA } });
    expect(again.status).toBe(202);
    expect(again.json).toEqual({ sent: false, expiresAt: expect.any(String) });
    expect(api.mailbox.count()).toBe(mails);
    // Code requests do not use up the link quota.
    expect((await api.send('POST', '/auth/magic-link/', { json: { email: ADA } })).status).toBe(202);
  });

  it('answers 429 too_many_requests with Retry-After past the per-address quota when no code is live', async () => {
    const api = await startAuth(start, { auth: { rateLimit: { perAddress: { max: 2, window: '1 hour' } } } });
    for (let i = 0; i < 2; i += 1) {
      expect((await api.send('POST', '/auth/magic-code/', { json: { email: ADA } })).status).toBe(202);
    }
    api.advance(10 * 60_000 + 1);
    const before = await api.snapshot();
    const mails = api.mailbox.count();
    const refused = await api.send('POST', '/auth/magic-code/', { json: { email: ADA } });
    expectProblem(refused, 429, 'too_many_requests');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await api.snapshot()).toEqual(before);
    expect(api.mailbox.count()).toBe(mails);
  });

  it('answers 429 past the per-IP limit, whatever the address', async () => {
    const api = await startAuth(start, { auth: { rateLimit: { perIp: { max: 2, window: '1 minute' } } } });
    await api.send('POST', '/auth/magic-code/', { json: { email: 'a@example.test' } });
    await api.send('POST', '/auth/magic-code/', { json: { email: 'b@example.test' } });
    const refused = await api.send('POST', '/auth/magic-code/', { json: { email: 'c@example.test' } });
    expectProblem(refused, 429, 'too_many_requests');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('answers a known and an unknown address alike, and creates no user on request', async () => {
    const api = await startAuth(start);
    await api.db.collection('users').insertOne({ _id: 'u1', email: ADA });
    const known = await api.send('POST', '/auth/magic-link/', { json: { email: ADA } });
    const unknown = await api.send('POST', '/auth/magic-link/', { json: { email: 'nobody@example.test' } });
    expect(unknown.status).toBe(known.status);
    expect(Object.keys(asObject(unknown.json)).sort()).toEqual(Object.keys(asObject(known.json)).sort());
    expect(field(unknown.json, 'sent')).toBe(true);
    expect(await api.db.collection('users').find({}).toArray()).toEqual([{ _id: 'u1', email: ADA }]);
  });
}

function hostTests(start: Start): void {
  it("signs in behind the host's own JSON body parser, and approves a poll link through it", async () => {
    const api = await startAuth(start, { serve: { bodyParser: true } });
    await api.send('POST', '/auth/magic-code/', { json: { email: ADA } });
    const verified = await api.send('POST', '/auth/magic-code/verify', {
      json: { email: ADA, code: api.mailbox.codeTo(ADA) },
    });
    expect(verified.status, verified.text).toBe(200);
    const asked = await api.send('POST', '/auth/magic-link/', { json: { email: ADA, poll: true } });
    const { token } = api.mailbox.linkTo(ADA);
    expect((await api.send('POST', `/auth/magic-link/${token}`, { json: {} })).status).toBe(200);
    expect((await api.send('GET', `/auth/magic-token/${field(asked.json, 'pollToken')}`)).status).toBe(200);
  });
}

function cookieTests(start: Start): void {
  it('marks the session cookie Secure when baseUrl is https', async () => {
    const api = await startAuth(start, { config: { baseUrl: 'https://store.test/api' } });
    await api.send('POST', '/auth/magic-code/', { json: { email: ADA } });
    const verified = await api.send('POST', '/auth/magic-code/verify', {
      json: { email: ADA, code: api.mailbox.codeTo(ADA) },
    });
    expect(verified.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
  });
}

/** Methods, exposure of users and auth state, send limits, enumeration, cookies. */
export function authRouteTests(start: Start): void {
  describe('auth: routes', () => {
    methodTests(start);
    exposureTests(start);
    abuseTests(start);
    cookieTests(start);
    hostTests(start);
  });
}
