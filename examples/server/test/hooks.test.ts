import { findSession, requestCode, verifyCode } from '@store/auth-magic';
import { createTestAuth } from '@store/auth-magic/testing';
import { createEmbeddedDb } from '@store/embedded';
import { describe, expect, it } from 'vitest';
import { blockUser, refuseBlockedUsers } from '../src/hooks.js';

// The example's doVerify hook, unit-tested with the @store/auth-magic test kit: no HTTP, no mail server.
describe('refuseBlockedUsers (doVerify)', () => {
  it('refuses a blocked user with 403 account_blocked and lets the others sign in', async () => {
    const db = createEmbeddedDb();
    await db.collection('users').insertOne({ email: 'eve@example.com', blocked: true });
    const { deps, mailer } = createTestAuth(db, { magicCode: { doVerify: refuseBlockedUsers } });

    await requestCode(deps, { email: 'eve@example.com' });
    const eve = verifyCode(deps, { email: 'eve@example.com', code: mailer.lastCodeTo('eve@example.com') });
    await expect(eve).rejects.toMatchObject({ status: 403, code: 'account_blocked' });

    await requestCode(deps, { email: 'ada@example.com' });
    const ada = verifyCode(deps, { email: 'ada@example.com', code: mailer.lastCodeTo('ada@example.com') });
    await expect(ada).resolves.toMatchObject({ user: { email: 'ada@example.com' } });
  });
});

describe('blockUser', () => {
  it('ends every session of the user at once and keeps them from signing in again', async () => {
    const db = createEmbeddedDb();
    const { deps, mailer } = createTestAuth(db, { magicCode: { doVerify: refuseBlockedUsers } });
    const signIn = async () => {
      await requestCode(deps, { email: 'eve@example.com' });
      return verifyCode(deps, { email: 'eve@example.com', code: mailer.lastCodeTo('eve@example.com') });
    };
    const phone = await signIn();
    const laptop = await signIn();

    expect(await blockUser(deps, phone.user._id)).toBe(2);
    expect(await findSession(deps, phone.token)).toBeNull();
    expect(await findSession(deps, laptop.token)).toBeNull();
    await expect(signIn()).rejects.toMatchObject({ status: 403, code: 'account_blocked' });
  });
});
