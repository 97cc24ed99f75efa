/** The `cors` option is checked at createStore: a bad value is an invalid_config naming `cors`. */
import { describe, expect, it } from 'vitest';
import { resolveStoreOptions } from '../../src/config/options';
import { optionError } from '../support/option-error';

describe('the cors option', () => {
  it('resolves true to any origin without credentials, and a list to exactly those origins', () => {
    expect(resolveStoreOptions({ cors: true }).cors).toEqual({ origins: '*', credentials: false });
    expect(resolveStoreOptions({}).cors).toBeUndefined();
    const listed = resolveStoreOptions({
      cors: { origins: ['https://a.example', 'http://localhost:5173'], credentials: true },
    });
    expect(listed.cors).toEqual({
      origins: new Set(['https://a.example', 'http://localhost:5173']),
      credentials: true,
    });
  });

  it.each([
    ['a string', 'https://a.example', /expected true, false or/],
    ['an empty origin list', { origins: [] }, /origins must be/],
    ['an origin with a path', { origins: ['https://a.example/app'] }, /origins must be/],
    ['an unknown key', { origins: '*', allowHeaders: ['x'] }, /unknown key "allowHeaders"/],
    ['credentials that is not a boolean', { origins: '*', credentials: 'yes' }, /cors\.credentials/],
  ])('refuses %s', (_, cors, message) => {
    const failure = optionError({ cors });
    expect(failure).toMatchObject({ code: 'invalid_config' });
    expect(String(failure.option)).toMatch(/^cors/);
    expect(failure.message).toMatch(message);
  });
});
