import { describe, expect, it } from 'vitest';
import { optionError } from '../../test/support/option-error';
import { resolveStoreOptions } from './options';

const DEFAULTS = {
  reads: { limit: 1000, windowSeconds: 60 },
  writes: { limit: 300, windowSeconds: 60 },
  streams: { limit: 60, windowSeconds: 60 },
  maxClients: 10_000,
};

describe('rateLimit', () => {
  it('is off unless set, and off with false', () => {
    expect(resolveStoreOptions({}).rateLimit).toBeUndefined();
    expect(resolveStoreOptions({ rateLimit: false }).rateLimit).toBeUndefined();
  });

  it('turns on every class with its defaults with true or {}', () => {
    expect(resolveStoreOptions({ rateLimit: true }).rateLimit).toEqual(DEFAULTS);
    expect(resolveStoreOptions({ rateLimit: {} }).rateLimit).toEqual(DEFAULTS);
  });

  it('takes each class on its own: a missing field from its default, false for no limit', () => {
    const config = {
      reads: { limit: 50 },
      writes: false,
      streams: { windowSeconds: 10 },
      maxClients: 5,
    } as const;
    expect(resolveStoreOptions({ rateLimit: config }).rateLimit).toEqual({
      reads: { limit: 50, windowSeconds: 60 },
      writes: undefined,
      streams: { limit: 60, windowSeconds: 10 },
      maxClients: 5,
    });
  });

  it('never changes the object it was given', () => {
    const config = { reads: { limit: 5 } };
    resolveStoreOptions({ rateLimit: config });
    expect(config).toEqual({ reads: { limit: 5 } });
  });

  it.each([
    ['a string', 'on', 'rateLimit'],
    ['an unknown class', { deletes: {} }, 'rateLimit.deletes'],
    ['an unknown field of a class', { reads: { max: 5 } }, 'rateLimit.reads.max'],
    ['a limit of 0', { reads: { limit: 0 } }, 'rateLimit.reads.limit'],
    ['a fractional limit', { writes: { limit: 1.5 } }, 'rateLimit.writes.limit'],
    ['a window of 0 seconds', { streams: { windowSeconds: 0 } }, 'rateLimit.streams.windowSeconds'],
    ['a window past a day', { reads: { windowSeconds: 86_401 } }, 'rateLimit.reads.windowSeconds'],
    ['a class set to true', { reads: true }, 'rateLimit.reads'],
    ['maxClients of 0', { maxClients: 0 }, 'rateLimit.maxClients'],
  ])('refuses %s, naming %j', (_case, rateLimit, option) => {
    expect(optionError({ rateLimit })).toMatchObject({ code: 'invalid_config', option });
  });
});
