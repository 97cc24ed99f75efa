import { createTestAuth } from '@store/auth-magic/testing';
import type { StoreRequest } from '@store/core';
import { createEmbeddedDb } from '@store/embedded';
import { describe, expect, it } from 'vitest';
import { createSession } from '../sessions';
import { findRequestSession } from './plugin';

const request = (headers: StoreRequest['headers']): StoreRequest => ({
  method: 'GET',
  path: '/posts',
  rawQuery: '',
  headers,
});

describe('findRequestSession (ctx.user, ctx.session)', () => {
  async function signedIn() {
    const db = createEmbeddedDb();
    const { deps } = createTestAuth(db);
    await db.collection('users').insertOne({ _id: 'u1', email: 'ada@example.test' });
    const session = await createSession(deps, { _id: 'u1', email: 'ada@example.test' });
    return { db, deps, session };
  }

  it.each([
    ['Authorization: Bearer', (token: string) => ({ authorization: `Bearer ${token}` })],
    ['the store_session cookie', (token: string) => ({ cookie: `theme=dark; store_session=${token}` })],
  ])('finds the session user from %s, named by its stored _id (never its token)', async (_, headers) => {
    const { db, deps, session } = await signedIn();
    const [stored] = await db.collection('svc-sessions').find({}).toArray();
    expect(await findRequestSession(request(headers(session.token)), deps)).toEqual({
      id: String(stored?._id),
      user: { _id: 'u1', email: 'ada@example.test' },
      expiresAt: session.expiresAt,
    });
  });

  it.each([
    ['no token', {}],
    ['a malformed token', { authorization: 'Bearer not-a-token' }],
    ['an unknown token', { authorization: `Bearer ${'A'.repeat(43)}` }],
  ])('answers null for %s', async (_, headers) => {
    const { deps } = await signedIn();
    expect(await findRequestSession(request(headers), deps)).toBeNull();
  });
});
