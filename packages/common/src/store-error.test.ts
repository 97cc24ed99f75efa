import { describe, expect, it } from 'vitest';
import { defineErrorCodes, errorFactory } from './error-codes';
import { HTTP_STATUS_TITLES, titleForStatus } from './http-status';
import { isOptionError, OptionError } from './option-error';
import { isStoreError, StoreError } from './store-error';

describe('StoreError', () => {
  it('carries status, code, detail, data, headers and its cause', () => {
    const cause = new Error('socket closed');
    const error = new StoreError(429, 'too_many_requests', 'Slow down.', {
      data: { scope: 'ip' },
      headers: { 'retry-after': '30' },
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'StoreError',
      status: 429,
      code: 'too_many_requests',
      detail: 'Slow down.',
      message: 'Slow down.',
      data: { scope: 'ip' },
      headers: { 'retry-after': '30' },
    });
    expect(error.cause).toBe(cause);
  });

  it('answers 500 for a status that is not an error status', () => {
    expect(new StoreError(302, 'odd', 'x').status).toBe(500);
  });

  it('is recognized across copies of the package by its brand, not its name', () => {
    class Copy extends Error {
      [key: symbol]: unknown;
    }
    const copy = new Copy('x');
    copy[Symbol.for('@store/common.StoreError')] = true;
    expect(isStoreError(copy)).toBe(true);
    expect(isStoreError(Object.assign(new Error('x'), { name: 'StoreError', status: 400, code: 'x' }))).toBe(
      false,
    );
    class QueryError extends StoreError {}
    expect(isStoreError(new QueryError(400, 'invalid_query', 'x'))).toBe(true);
  });
});

describe('titleForStatus', () => {
  it.each(Object.entries(HTTP_STATUS_TITLES))('titles %s with its reason phrase', (status, title) => {
    expect(titleForStatus(Number(status))).toBe(title);
  });

  it.each([
    [499, 'Bad Request'],
    [599, 'Internal Server Error'],
  ])('titles an unlisted %i by its class', (status, title) => {
    expect(titleForStatus(status)).toBe(title);
  });
});

describe('defineErrorCodes', () => {
  it('keeps a table of snake_case codes and titled error statuses, frozen', () => {
    const codes = defineErrorCodes({ mail_failed: 502, invalid_code: 401 });
    expect(codes).toEqual({ mail_failed: 502, invalid_code: 401 });
    expect(Object.isFrozen(codes)).toBe(true);
  });

  it.each([
    ['a code that is not snake_case', { mailFailed: 502 }],
    ['a status below 400', { moved: 301 }],
    ['a status without a title', { odd: 499 }],
  ])('refuses %s', (_what, table) => {
    expect(() => defineErrorCodes(table)).toThrow(TypeError);
  });

  it('makes errors with the status of their code', () => {
    const fail = errorFactory(defineErrorCodes({ not_found: 404 }));
    expect(fail('not_found', 'No post 7.')).toMatchObject({
      status: 404,
      code: 'not_found',
      detail: 'No post 7.',
    });
  });
});

describe('OptionError', () => {
  it('names the option in its message, its data and its fields', () => {
    const error = new OptionError('resources.posts.access', 'expected a rule');
    expect(error).toMatchObject({
      status: 500,
      code: 'invalid_config',
      option: 'resources.posts.access',
      problem: 'expected a rule',
      data: { option: 'resources.posts.access' },
      message: 'Invalid @store option "resources.posts.access": expected a rule.',
    });
    expect(isStoreError(error) && isOptionError(error)).toBe(true);
  });
});
