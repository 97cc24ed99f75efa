/**
 * On both engines: expiry is read from `expiresAt`, not from when a TTL sweep
 * runs, and one address never gets two users, however many first sign-ins race.
 */
import type { Document, ModifyOptions, StoreCollection, StoreDb } from '@store/common';
import { describeEngines } from '@store/test-kit';
import { expect, it } from 'vitest';
import { consumeLink, requestCode, requestLink, verifyCode } from '../src/index';
import { createTestAuth } from '../src/testing';
import { refusal } from './support/harness';

const ADA = 'ada@example.test';

/** A clock this far behind real time makes every secret it issues already expired in real time. */
const ELEVEN_MINUTES_AGO = () => new Date(Date.now() - 11 * 60_000);

/**
 * The user collection as MongoDB's manual describes an upsert without a unique index: the match and the
 * insert are separate steps, so two concurrent upserts of one new key can both insert. A unique
 * index turns the second insert into a duplicate key error (code 11000).
 */
function withRacyUpserts(db: StoreDb): StoreDb {
  async function racyUpsert(
    collection: StoreCollection,
    filter: Document,
    update: Document,
    options: ModifyOptions,
  ) {
    if (options.upsert !== true) return collection.findOneAndUpdate(filter, update, options);
    const found = await collection.findOne(filter);
    if (found !== null) return collection.findOneAndUpdate(filter, update, options);
    await new Promise((resolve) => setImmediate(resolve));
    await collection.insertOne({ ...filter, ...(update.$setOnInsert as Document) });
    return collection.findOne(filter);
  }
  const racy = (collection: StoreCollection): StoreCollection =>
    new Proxy(collection, {
      get(target, key) {
        if (key === 'findOneAndUpdate') {
          return (filter: Document, update: Document, options: ModifyOptions) =>
            racyUpsert(target, filter, update, options);
        }
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return { collection: (name) => (name === 'users' ? racy(db.collection(name)) : db.collection(name)) };
}

describeEngines('expiry and one user per address', (engine) => {
  it('answers an expired code 410 token_expired even where the TTL sweep runs at once', async () => {
    const db = await engine.createDb();
    const { deps, mailer } = createTestAuth(db, { clock: ELEVEN_MINUTES_AGO });
    await requestCode(deps, { email: ADA });
    // A real-time read later: the secret's expiresAt (10 minutes after issue) is a minute past.
    const late = createTestAuth(db, {}).deps;
    const error = await refusal(verifyCode(late, { email: ADA, code: mailer.lastCodeTo(ADA) }));
    expect(error).toMatchObject({ status: 410, code: 'token_expired' });
  });

  it('answers an expired link 410 token_expired even where the TTL sweep runs at once', async () => {
    const db = await engine.createDb();
    const dayAgo = () => new Date(Date.now() - 25 * 3_600_000);
    const { deps, mailer } = createTestAuth(db, { clock: dayAgo });
    await requestLink(deps, { email: ADA });
    const late = createTestAuth(db, {}).deps;
    const error = await refusal(consumeLink(late, { token: mailer.lastLinkTokenTo(ADA) }));
    expect(error).toMatchObject({ status: 410, code: 'token_expired' });
  });

  it('keeps one user when 20 first sign-ins of a new address race (20 links, one each)', async () => {
    const db = await engine.createDb();
    const { deps, mailer } = createTestAuth(withRacyUpserts(db), {
      magicLink: { max: 20 },
      rateLimit: { perAddress: { max: 1000 }, perIp: { max: 1000 } },
    });
    const tokens: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      await requestLink(deps, { email: ADA });
      tokens.push(mailer.lastLinkTokenTo(ADA));
    }
    const sessions = await Promise.all(tokens.map((token) => consumeLink(deps, { token })));
    const users = await db.collection('users').find({ email: ADA }).toArray();
    expect(users).toHaveLength(1);
    expect(new Set(sessions.map((session) => String(session.user._id)))).toEqual(
      new Set([String(users[0]?._id)]),
    );
  });

  it('creates one user and one session when one new code is verified 20 times at once', async () => {
    const db = await engine.createDb();
    const { deps, mailer } = createTestAuth(withRacyUpserts(db), {});
    await requestCode(deps, { email: ADA });
    const code = mailer.lastCodeTo(ADA);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => verifyCode(deps, { email: ADA, code })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await db.collection('users').find({ email: ADA }).toArray()).toHaveLength(1);
  });
});
