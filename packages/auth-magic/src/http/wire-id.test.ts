import type { Document } from '@store/common';
import { createStoreHandler, type StoreHandler, type WireId } from '@store/core';
import { createEmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCapturingMailer } from '../testing';
import { magicAuth } from './plugin';

const ADA = 'ada@example.test';
/** A user with a string `_id`, and a stored `id` field of its own. */
const ADA_STORED = { _id: 'u-7', email: ADA, id: 'stored-id-field', name: 'Ada' };

const handlers: StoreHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handle) => handle.close()));
});

/** Signs `user` in by code on a store with `wireId` (the default when undefined): both answers. */
async function signIn(wireId: WireId | undefined, user: Document) {
  const db = createEmbeddedDb();
  await db.collection('users').insertOne(user);
  const mailer = createCapturingMailer();
  const handle = createStoreHandler({
    db,
    ...(wireId === undefined ? {} : { wireId }),
    plugins: [magicAuth],
    baseUrl: 'https://notes.test/api',
    secret: 'a-secret-of-16-chars+',
    logger: { error: vi.fn(), warn: vi.fn() },
    resources: { user: { auth: { magicCode: {}, mailer } } },
  });
  handlers.push(handle);
  const email = user.email as string;
  const post = (path: string, body: unknown) =>
    handle({
      method: 'POST',
      path,
      rawQuery: '',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await post('/auth/magic-code', { email }))?.status).toBe(202);
  const verified = await post('/auth/magic-code/verify', { email, code: mailer.lastCodeTo(email) });
  expect(verified?.status).toBe(200);
  const signedIn = JSON.parse(verified?.body ?? '');
  const headers = { authorization: `Bearer ${signedIn.token}` };
  const session = await handle({ method: 'GET', path: '/auth/session', rawQuery: '', headers });
  expect(session?.status).toBe(200);
  return { signedIn, session: JSON.parse(session?.body ?? ''), db };
}

describe("the user document in auth answers follows the store's wireId", () => {
  it("shows the user's _id as id (first, no _id, no stored id field) under wireId: 'id'", async () => {
    const { signedIn, session } = await signIn('id', ADA_STORED);
    const user = { id: 'u-7', email: ADA, name: 'Ada' };
    expect(session.user).toStrictEqual(user);
    expect(Object.keys(session.user)[0]).toBe('id');
    expect(signedIn.user).toStrictEqual(user);
  });

  it('keeps a numeric _id a number when shown as id', async () => {
    const { signedIn, session } = await signIn('id', { _id: 42, email: 'grace@example.test' });
    expect(session.user).toStrictEqual({ id: 42, email: 'grace@example.test' });
    expect(signedIn.user).toStrictEqual({ id: 42, email: 'grace@example.test' });
  });

  it('answers the stored document, _id and all, under the default wireId', async () => {
    const { signedIn, session } = await signIn(undefined, ADA_STORED);
    expect(session.user).toStrictEqual(ADA_STORED);
    expect(signedIn.user).toStrictEqual(ADA_STORED);
  });

  it('leaves the stored user as it was', async () => {
    const { db } = await signIn('id', ADA_STORED);
    expect(await db.collection('users').findOne({ email: ADA })).toMatchObject(ADA_STORED);
  });
});
