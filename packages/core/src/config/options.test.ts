import { describe, expect, it } from 'vitest';
import { optionError } from '../../test/support/option-error';
import { resolveStoreOptions } from './options';

describe('resolveStoreOptions', () => {
  it('applies every default', () => {
    const options = resolveStoreOptions({});
    expect(options).toMatchObject({
      db: undefined,
      restrict: false,
      baseUrl: undefined,
      defaultLimit: 10,
      maxLimit: 1000,
      maxBulk: 1000,
      bodyLimit: 1024 * 1024,
      timestamps: false,
      logger: console,
      realtime: {
        maxSubscribers: 10_000,
        maxStreamsPerClient: 100,
        signedInShare: 0.5,
        keepAliveSeconds: 15,
        replayEvents: 1000,
        replayBytes: 16 * 1024 * 1024,
        maxQueuedBytes: 4 * 1024 * 1024,
      },
      trustedProxies: { entries: [] },
    });
    expect(options.resources.size).toBe(0);
    expect(options).not.toHaveProperty('openapi');
  });

  it('queues four times bodyLimit for a slow event reader unless maxQueuedBytes is set', () => {
    expect(resolveStoreOptions({ bodyLimit: '2mb' }).realtime?.maxQueuedBytes).toBe(8 * 1024 * 1024);
    expect(
      resolveStoreOptions({ bodyLimit: '2mb', realtime: { maxQueuedBytes: '64kb' } }).realtime
        ?.maxQueuedBytes,
    ).toBe(64 * 1024);
  });

  it('keeps a default when an option is explicitly undefined', () => {
    expect(resolveStoreOptions({ defaultLimit: undefined, bodyLimit: undefined })).toMatchObject({
      defaultLimit: 10,
      bodyLimit: 1024 * 1024,
    });
  });

  it.each([
    [512, 512],
    ['2048', 2048],
    ['512b', 512],
    ['100kb', 102_400],
    ['1mb', 1_048_576],
    ['1.5MB', 1_572_864],
    ['1gb', 1024 ** 3],
  ])('reads bodyLimit %j as %i bytes', (bodyLimit, bytes) => {
    expect(resolveStoreOptions({ bodyLimit }).bodyLimit).toBe(bytes);
  });

  it('resolves a declared resource with the global timestamps default', () => {
    const options = resolveStoreOptions({
      timestamps: true,
      resources: {
        posts: { search: ['title', 'author.name'] },
        notes: { timestamps: false, collection: 'my-notes' },
      },
    });
    expect(options.resources.get('posts')).toEqual({
      name: 'posts',
      collection: 'posts',
      timestamps: true,
      search: ['title', 'author.name'],
      geo: [],
      indexes: [],
      declared: true,
      access: options.defaultAccess,
      hidden: ['_store_rev'],
      managed: [],
      protected: [],
      softDelete: false,
      hooks: {},
      schema: undefined,
      validate: undefined,
    });
    expect(options.resources.get('notes')).toMatchObject({
      collection: 'my-notes',
      timestamps: false,
      search: [],
    });
  });

  it('strips trailing slashes from baseUrl', () => {
    expect(resolveStoreOptions({ baseUrl: 'https://example.com/api/' }).baseUrl).toBe(
      'https://example.com/api',
    );
  });

  it.each([
    ['a config that is not an object', 42, 'config'],
    ['an unknown top-level option', { dbb: 'x' }, 'dbb'],
    ['db of the wrong type', { db: 42 }, 'db'],
    ['db as a string that is not a MongoDB URI', { db: 'postgres://x' }, 'db'],
    ['resources that is not an object', { resources: [] }, 'resources'],
    ['an invalid resource name', { resources: { 'bad name': {} } }, 'resources.bad name'],
    ['an unknown realtime option', { realtime: { maxStreams: 5 } }, 'realtime.maxStreams'],
    ['a realtime queue under 1024 bytes', { realtime: { maxQueuedBytes: 100 } }, 'realtime.maxQueuedBytes'],
    ['a zero realtime.maxSubscribers', { realtime: { maxSubscribers: 0 } }, 'realtime.maxSubscribers'],
    [
      'a zero realtime.maxStreamsPerClient',
      { realtime: { maxStreamsPerClient: 0 } },
      'realtime.maxStreamsPerClient',
    ],
    ['a realtime.signedInShare above 1', { realtime: { signedInShare: 1.5 } }, 'realtime.signedInShare'],
    [
      'a realtime.signedInShare as a string',
      { realtime: { signedInShare: '50%' } },
      'realtime.signedInShare',
    ],
    ['a realtime.replayBytes that is no size', { realtime: { replayBytes: 'lots' } }, 'realtime.replayBytes'],
    ['the openapi option, moved to the @store/openapi plugin', { openapi: true }, 'openapi'],
    ['the openapi option even when false', { openapi: false }, 'openapi'],
    [
      'an indexes entry that is not a field path',
      { resources: { posts: { indexes: [''] } } },
      'resources.posts.indexes[0]',
    ],
    ['a resource config that is not an object', { resources: { posts: true } }, 'resources.posts'],
    ['an unknown resource option', { resources: { posts: { acess: 'public' } } }, 'resources.posts.acess'],
    [
      'a non-boolean resource timestamps',
      { resources: { posts: { timestamps: 'yes' } } },
      'resources.posts.timestamps',
    ],
    ['search that is not an array', { resources: { posts: { search: 'title' } } }, 'resources.posts.search'],
    [
      'a search field starting with $',
      { resources: { posts: { search: ['$where'] } } },
      'resources.posts.search[0]',
    ],
    [
      'an empty search path segment',
      { resources: { posts: { search: ['a..b'] } } },
      'resources.posts.search[0]',
    ],
    ['an empty collection name', { resources: { posts: { collection: '' } } }, 'resources.posts.collection'],
    [
      'a collection name with $',
      { resources: { posts: { collection: 'a$b' } } },
      'resources.posts.collection',
    ],
    [
      'a system collection',
      { resources: { posts: { collection: 'system.users' } } },
      'resources.posts.collection',
    ],
    ['a non-boolean restrict', { restrict: 1 }, 'restrict'],
    ['a relative baseUrl', { baseUrl: 'api' }, 'baseUrl'],
    ['a non-http baseUrl', { baseUrl: 'ftp://example.com' }, 'baseUrl'],
    ['a zero defaultLimit', { defaultLimit: 0 }, 'defaultLimit'],
    ['a zero maxBulk', { maxBulk: 0 }, 'maxBulk'],
    ['a fractional maxLimit', { maxLimit: 1.5 }, 'maxLimit'],
    ['defaultLimit above maxLimit', { defaultLimit: 50, maxLimit: 20 }, 'defaultLimit'],
    ['a negative bodyLimit', { bodyLimit: -1 }, 'bodyLimit'],
    ['an unknown bodyLimit unit', { bodyLimit: '1tb' }, 'bodyLimit'],
    ['a non-boolean timestamps', { timestamps: 'true' }, 'timestamps'],
    ['a logger without warn', { logger: { error() {} } }, 'logger'],
  ])('rejects %s, naming the option', (_, config, option) => {
    const error = optionError(config);
    expect(error.code).toBe('invalid_config');
    expect(error.option).toBe(option);
    expect(error.message).toContain(`"${option}"`);
  });
});
