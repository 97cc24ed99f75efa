import type { StoreDb } from '@store/common';
import { createEmbeddedDb } from '@store/embedded';
import { describe, expect, it } from 'vitest';
import { optionError } from '../../test/support/option-error';
import type { StoreRequest } from '../model/http';
import type { StorePlugin, StoreWidePlugin } from '../model/plugin';
import type { StoreDescription } from '../model/store-description';
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
      routePaths: ['/whoami'],
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

  it('refuses a store plugin whose route paths another plugin already answers', () => {
    const shadowing = reporter(['/whoami/extra']);
    expect(
      optionError({ plugins: [headerAuth, shadowing], resources: { member: { headerAuth: {} } } }),
    ).toMatchObject({ code: 'invalid_config', option: 'plugins' });
  });
});

/** A store-wide plugin that answers with what `store.describe()` says, and a script body with an ETag. */
function reporter(routePaths: readonly string[] = ['/described', '/script.js']): StoreWidePlugin {
  return {
    name: 'reporter',
    errorCodes: { reporter_broken: 500 },
    setup({ option, store: info }) {
      return {
        collections: [],
        routePaths,
        async start() {
          return {
            async answer({ request: req }) {
              if (req.path === '/described') return { status: 200, data: { option, ...info.describe() } };
              if (req.path !== '/script.js') return null;
              const headers = { 'content-type': 'text/javascript; charset=utf-8' };
              return { status: 200, body: 'void 0;', headers, etag: true };
            },
          };
        },
      };
    },
  };
}

describe('a store-wide plugin', () => {
  const described = async (config: Parameters<typeof createStoreHandler>[0]) => {
    const handle = createStoreHandler({ db: createEmbeddedDb(), ...config });
    await handle.ready;
    const answer = await handle(request('GET', '/described'));
    await handle.close();
    return JSON.parse(answer?.body ?? '') as StoreDescription & { option: string };
  };

  it('reads the store’s description: routed resources, rules without functions, other plugins’ routes and codes', async () => {
    const description = await described({
      plugins: [headerAuth, reporter()],
      restrict: true,
      baseUrl: 'https://api.example.com',
      resources: {
        member: { headerAuth: {} },
        notes: { access: { read: 'public', create: 'authenticated', update: (ctx) => ctx.user !== null } },
        whoami: {},
      },
    });
    expect(description.option).toBe('plugins[1]');
    expect(description).toMatchObject({ baseUrl: 'https://api.example.com', restrict: true });
    expect(description.otherResources).toBeUndefined();
    // `member` is routed as `accounts`; `whoami` is shadowed by the plugin route of that name.
    expect(description.resources.map((resource) => resource.name)).toEqual(['notes', 'accounts']);
    expect(description.resources[0]?.access).toMatchObject({
      read: { kind: 'public' },
      create: { kind: 'authenticated' },
      update: { kind: 'function' },
    });
    expect(description.resources[1]?.access.read).toEqual({ kind: 'owner', field: '_id' });
    expect(description.plugins.map(({ name, routePaths }) => [name, routePaths])).toEqual([
      ['header-auth', ['/whoami']],
      ['reporter', ['/described', '/script.js']],
    ]);
    expect(description.errorCodes).toMatchObject({ not_found: 404, invalid_query: 400 });
    expect(description.plugins[1]?.errorCodes).toEqual({ reporter_broken: 500 });
  });

  it('describes the other resources’ access when not restricted, and realtime’s keep-alive', async () => {
    const description = await described({ plugins: [reporter()], defaultAccess: 'authenticated' });
    expect(description.otherResources?.access.read).toEqual({ kind: 'authenticated' });
    expect(description.realtime).toEqual({ keepAliveSeconds: 15 });
    expect((await described({ plugins: [reporter()], realtime: false })).realtime).toBeUndefined();
  });

  it('sends a text body as it is, with its ETag, and 304 to a matching If-None-Match', async () => {
    const handle = createStoreHandler({ db: createEmbeddedDb(), plugins: [reporter()] });
    await handle.ready;
    const first = await handle(request('GET', '/script.js'));
    expect(first).toMatchObject({
      status: 200,
      body: 'void 0;',
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'content-length': '7' },
    });
    const etag = first?.headers.etag;
    expect(etag).toMatch(/^W\/"/);
    expect(await handle(request('GET', '/script.js', { 'if-none-match': etag }))).toMatchObject({
      status: 304,
    });
    await handle.close();
  });

  it('refuses the removed openapi option with the way to the plugin', () => {
    expect(optionError({ openapi: true })).toMatchObject({
      code: 'invalid_config',
      option: 'openapi',
      message: expect.stringContaining('@store/openapi'),
    });
  });
});
