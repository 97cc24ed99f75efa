import type { StoreDb } from '@store/common';
import { createEmbeddedDb } from '@store/embedded';
import { describe, expect, it } from 'vitest';
import { optionError } from '../../test/support/option-error';
import type { StoreRequest } from '../model/http';
import type { StorePlugin } from '../model/plugin';
import { createStoreHandler } from './handler';

declare module '../model/plugin' {
  interface PluginResourceOptions {
    /** The test plugin's option: a plugin package types its claimed option this way. */
    headerAuth?: unknown;
  }
}

const request = (method: string, path: string, headers: StoreRequest['headers'] = {}): StoreRequest => ({
  method,
  path,
  rawQuery: '',
  headers,
});

/** A second sign-in strategy, written against core's plugin interface alone: a header names the user. */
const headerAuth: StorePlugin = {
  name: 'header-auth',
  resourceOption: 'headerAuth',
  defaultCollection: (name) => `${name}-accounts`,
  errorCodes: {},
  setup(input) {
    if (input.value === false) return null;
    return {
      collections: ['header-auth-log'],
      resource: { routeAs: 'accounts', defaultAccess: { rule: 'owner', ownerField: '_id' } },
      routePrefix: '/whoami',
      answerHeaders: { 'cache-control': 'no-store' },
      async start(db: StoreDb) {
        await db.collection('header-auth-log').createIndex({ at: 1 });
        return {
          async answer({ request: req, method }) {
            if (req.path !== '/whoami') return null;
            return { status: 200, data: { method, user: req.headers['x-user'] ?? null } };
          },
          async findSession(req) {
            const id = req.headers['x-user'];
            if (typeof id !== 'string') return null;
            const user = await db.collection(input.collection).findOne({ _id: id });
            return user === null ? null : { user, expiresAt: new Date(Date.now() + 60_000) };
          },
        };
      },
    };
  },
};

function store(value: unknown = {}) {
  const db = createEmbeddedDb();
  const handle = createStoreHandler({
    db,
    plugins: [headerAuth],
    resources: { member: { headerAuth: value } },
  });
  return { db, handle };
}

describe('the plugin interface', () => {
  it('mounts a plugin’s routes under its prefix, with its headers; another path under it is not the store’s', async () => {
    const { handle } = store();
    await handle.ready;
    const answer = await handle(request('GET', '/whoami', { 'x-user': 'ada' }));
    expect(answer).toMatchObject({ status: 200, headers: { 'cache-control': 'no-store' } });
    expect(JSON.parse(answer?.body ?? '')).toEqual({ method: 'GET', user: 'ada' });
    expect(await handle(request('GET', '/whoami/else'))).toBeNull();
  });

  it('routes the resource carrying the option as the plugin asks, with its sessions and default access', async () => {
    const { db, handle } = store();
    await handle.ready;
    await db.collection('member-accounts').insertOne({ _id: 'ada', name: 'Ada' });
    await db.collection('member-accounts').insertOne({ _id: 'bob', name: 'Bob' });
    const mine = await handle(request('GET', '/accounts', { 'x-user': 'ada' }));
    expect(JSON.parse(mine?.body ?? '')).toEqual([{ _id: 'ada', name: 'Ada' }]);
    expect((await handle(request('GET', '/accounts')))?.status).toBe(401);
    for (const internal of ['/member', '/header-auth-log'])
      expect(await handle(request('GET', internal))).toBeNull();
  });

  it('leaves the plugin off when its setup says so: its prefix is an ordinary resource again', async () => {
    const { db, handle } = store(false);
    await handle.ready;
    const answer = await handle(request('GET', '/whoami'));
    expect(answer).toMatchObject({ status: 200, body: '[]' });
    expect(answer?.headers['cache-control']).toBeUndefined();
    await db.collection('member-accounts').insertOne({ _id: 'ada' });
    expect((await handle(request('GET', '/member')))?.status).toBe(200);
  });

  it.each([
    ['a plugins option that is no array', { plugins: headerAuth }, 'plugins'],
    ['a plugin that is no plugin', { plugins: [{ name: 'x' }] }, 'plugins[0]'],
    ['two plugins claiming one option', { plugins: [headerAuth, headerAuth] }, 'plugins[1]'],
    [
      'an option no plugin claims',
      { resources: { member: { headerAuth: {} } } },
      'resources.member.headerAuth',
    ],
  ])('refuses %s with invalid_config naming it', (_what, config, option) => {
    expect(optionError(config)).toMatchObject({ code: 'invalid_config', option });
  });
});
