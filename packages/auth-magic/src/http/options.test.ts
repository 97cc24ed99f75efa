import { findResource, resolveStoreOptions as resolveCoreOptions } from '@store/core';
import { describe, expect, it, vi } from 'vitest';
import {
  authOptionsOf,
  optionErrorWithAuth as optionError,
  optionErrorOf,
  resolveWithAuth as resolveStoreOptions,
} from '../../test/support/store-options';

const quiet = () => ({ error: vi.fn(), warn: vi.fn(), log: vi.fn() });
const base = { baseUrl: 'https://shop.test/api', secret: 'a-secret-of-16-chars+', logger: quiet() };

describe('resources.user.auth', () => {
  it('resolves once at createStore: users in "users" (owner on _id), auth state never routable', () => {
    const options = resolveStoreOptions({ ...base, resources: { user: { auth: { magicCode: {} } } } });
    expect(authOptionsOf(options)).toMatchObject({
      userCollection: 'users',
      baseUrl: 'https://shop.test/api',
      secureCookie: true,
      magicLink: null,
      magicCode: { length: 6, maxAttempts: 5, expMs: 600_000 },
    });
    for (const name of ['user', 'svc-sessions', 'svc-magic-codes', 'svc-rate-limits']) {
      expect(findResource(options, name), name).toBeUndefined();
    }
    expect(findResource(options, 'users')).toMatchObject({
      name: 'users',
      collection: 'users',
      managed: ['email'],
      access: {
        read: { kind: 'owner', field: '_id' },
        update: { kind: 'owner', field: '_id' },
        delete: { kind: 'owner', field: '_id' },
        create: { kind: 'none' },
      },
    });
    expect(findResource(options, 'posts')).toBeDefined();
  });

  it.each([
    ['magicLink', 'doVerfy', /unknown option \(known: emailField/],
    ['magicCode', 'doBeforeRetrieve', /doBeforeRetrieve is doRetrieve here/],
    ['magicCode', 'pollInterval', /unknown option/],
  ])('refuses the unknown key %s.%s with invalid_config naming it', (strategy, key, message) => {
    const auth = { [strategy]: { [key]: async () => undefined } };
    const error = optionError({ ...base, resources: { user: { auth } } });
    expect(error).toMatchObject({ code: 'invalid_config', option: `resources.user.auth.${strategy}.${key}` });
    expect(error.message).toMatch(message);
  });

  it('takes sendTimeout and isBlocked under resources.user.auth', () => {
    const isBlocked = () => false;
    const auth = { magicCode: {}, sendTimeout: '5s', isBlocked };
    const options = resolveStoreOptions({ ...base, resources: { user: { auth } } });
    expect(authOptionsOf(options)).toMatchObject({ sendTimeoutMs: 5000, isBlocked });
  });

  it('applies resources.user.population to the user resource under its routed name', () => {
    const options = resolveStoreOptions({
      ...base,
      resources: { user: { auth: { magicCode: {} }, population: { notes: { limit: 2 } } } },
    });
    expect(options.populate.constraint('users', 'notes').limit).toBe(2);
    expect(options.relations).toEqual([{ resource: 'users', relation: 'notes' }]);
  });

  it('keeps custom collections of auth out of resource routes too', () => {
    const options = resolveStoreOptions({
      ...base,
      resources: {
        user: {
          collection: 'members',
          auth: { magicLink: { collection: 'links' }, sessionsCollection: 'logins' },
        },
      },
    });
    expect(authOptionsOf(options)?.userCollection).toBe('members');
    for (const name of ['links', 'logins', 'user']) expect(findResource(options, name)).toBeUndefined();
    expect(findResource(options, 'members')).toMatchObject({ name: 'members', collection: 'members' });
    expect(findResource(options, 'users')).toMatchObject({ collection: 'users', declared: false });
  });

  it('leaves users routable and mounts nothing when no strategy is enabled', () => {
    const options = resolveStoreOptions({ resources: { user: { auth: { magicLink: null } } } });
    expect(authOptionsOf(options)).toBeNull();
    expect(findResource(options, 'users')).toBeDefined();
  });

  it('warns once through the logger and draws a random secret when none is given', () => {
    const logger = quiet();
    const options = resolveStoreOptions({
      ...base,
      secret: undefined,
      logger,
      resources: { user: { auth: { magicCode: {} } } },
    });
    expect(authOptionsOf(options)?.secret.length).toBeGreaterThanOrEqual(32);
    expect(logger.warn.mock.calls.filter(([message]) => String(message).includes('secret'))).toHaveLength(1);
  });

  it.each([
    ['resources.user.auth.magicLink.exp', { magicLink: { exp: 'whenever' } }],
    ['resources.user.auth.magicCode.length', { magicCode: { length: 2 } }],
    [
      'resources.user.auth.rateLimit.perIp.window',
      { magicCode: {}, rateLimit: { perIp: { window: 'soonish' } } },
    ],
    ['resources.user.auth.mailer', { magicCode: {}, mailer: 'http://mail.test' }],
    ['resources.user.auth.sessionTtl', { magicCode: {}, sessionTtl: 'never' }],
    ['resources.user.auth.magic', { magic: {} }],
  ])('fails at createStore naming %s', (option, auth) => {
    expect(optionError({ ...base, resources: { user: { auth } } })).toMatchObject({
      code: 'invalid_config',
      option,
    });
  });

  it.each([
    ['a short secret', { ...base, secret: 'short' }, 'secret'],
    ['no baseUrl', { ...base, baseUrl: undefined }, 'baseUrl'],
    ['a path baseUrl (links need an absolute address)', { ...base, baseUrl: '/api' }, 'baseUrl'],
  ])('fails at createStore with %s', (_, config, option) => {
    const error = optionError({ ...config, resources: { user: { auth: { magicCode: {} } } } });
    expect(error).toMatchObject({ code: 'invalid_config', option });
  });

  it('asks for the plugin when resources.user.auth is configured without it', () => {
    const config = { resources: { user: { auth: { magicCode: {} } } } };
    expect(optionErrorOf(() => resolveCoreOptions(config))).toMatchObject({
      code: 'invalid_config',
      option: 'resources.user.auth',
      message: expect.stringContaining('plugins: [magicAuth]'),
    });
  });

  it('takes auth on the user resource only', () => {
    expect(optionError({ ...base, resources: { people: { auth: { magicCode: {} } } } })).toMatchObject({
      option: 'resources.people.auth',
    });
  });

  it.each([
    ['a resource named after an auth collection', { 'svc-sessions': {} }, 'resources.svc-sessions'],
    ['a collection override onto one', { s: { collection: 'svc-magic-links' } }, 'resources.s'],
    [
      'a relation to one',
      { c: { population: { 'svc-sessions': {} } } },
      'resources.c.population.svc-sessions',
    ],
  ])('refuses %s', (_, resources, option) => {
    const config = { ...base, resources: { ...resources, user: { auth: { magicCode: {}, magicLink: {} } } } };
    expect(optionError(config)).toMatchObject({ code: 'invalid_config', option });
  });

  it('refuses another resource over the users collection', () => {
    const config = {
      ...base,
      resources: { user: { auth: { magicCode: {} } }, members: { collection: 'users' } },
    };
    expect(optionError(config)).toMatchObject({ code: 'invalid_config', option: 'resources.members' });
  });

  it('never changes the config it is given', () => {
    const auth = { magicCode: { exp: '5m' }, rateLimit: { perIp: null } };
    const config = { ...base, resources: { user: { auth } } };
    const copy = structuredClone({ ...config, logger: undefined });
    resolveStoreOptions(config);
    expect({ ...config, logger: undefined }).toEqual(copy);
  });
});
