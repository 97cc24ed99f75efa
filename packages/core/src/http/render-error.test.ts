import { StoreError, titleForStatus } from '@store/common';
import { QueryError } from '@store/query';
import { describe, expect, it, vi } from 'vitest';
import { ERROR_CODES, storeError } from '../model/error-codes';

/** An error of another package: a StoreError subclass. */
class AuthLikeError extends StoreError {}

import type { StoreLogger } from '../model/http';
import { renderError } from './render-error';

function logger(): StoreLogger & { error: ReturnType<typeof vi.fn> } {
  return { error: vi.fn(), warn: vi.fn() };
}

function render(error: unknown, log: StoreLogger = logger()) {
  const response = renderError(error, log);
  return { ...response, problem: JSON.parse(response.body ?? 'null') };
}

describe('renderError', () => {
  it('renders a StoreError as an RFC 9457 problem', () => {
    const response = render(storeError('not_found', 'No document of "posts" has the id "7".'));
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(response.body ?? '')));
    expect(response.problem).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No document of "posts" has the id "7".',
      code: 'not_found',
    });
  });

  it('carries the headers of the error, such as Allow', () => {
    const error = storeError('method_not_allowed', 'POST is not allowed here.', {
      headers: { allow: 'GET, HEAD' },
    });
    expect(render(error).headers.allow).toBe('GET, HEAD');
  });

  it('renders extension members of a StoreError at the top level of the problem', () => {
    const errors = [{ field: 'title', message: 'must be string' }];
    const response = render(storeError('invalid_body', 'bad title', { extensions: { errors } }));
    expect(response.problem).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'bad title',
      code: 'invalid_body',
      errors,
    });
  });

  it('never lets an extension member replace a member of the problem itself', () => {
    const extensions = { type: 'x', title: 'x', status: 200, detail: 'x', code: 'x', hint: 'kept' };
    const response = render(storeError('not_found', 'missing', { extensions }));
    expect(response.status).toBe(404);
    expect(response.problem).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'missing',
      code: 'not_found',
      hint: 'kept',
    });
  });

  it('renders a __proto__ extension as a plain member, never as a prototype', () => {
    const extensions = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const response = render(storeError('invalid_body', 'bad', { extensions }));
    expect(response.problem.polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(response.problem, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('does not render data, only extensions', () => {
    const response = render(storeError('invalid_body', 'bad', { data: { secret: 'internal' } }));
    expect(response.body).not.toContain('internal');
  });

  it('renders a QueryError with its code and message', () => {
    const response = render(new QueryError('unknown_parameter', '$foo', '$foo: unknown parameter'));
    expect(response.problem).toMatchObject({ status: 400, title: 'Bad Request', code: 'unknown_parameter' });
    expect(response.problem.detail).toBe('$foo: unknown parameter');
  });

  it('renders a duplicate key error (code 11000) as 409 conflict without the driver message', () => {
    const error = Object.assign(
      new Error('E11000 duplicate key error collection: db.posts index: _id_ dup key: { _id: "secret" }'),
      {
        code: 11000,
      },
    );
    const response = render(error);
    expect(response.problem).toMatchObject({ status: 409, title: 'Conflict', code: 'conflict' });
    expect(response.body).not.toContain('secret');
  });

  it.each([
    [16755, 'invalid_body', 'Can\'t extract geo keys: { loc: { type: "Point", coordinates: [ 500, 1 ] } }'],
    [51091, 'invalid_query', 'Regular expression is invalid: PCRE2 does not support \\u'],
    [5626500, 'invalid_query', '$geoNear, $near, and $nearSphere are not allowed in this context'],
    [2, 'invalid_query', 'text and geoNear not allowed in same query'],
  ])('renders database error %i as 400 %s without the driver message', (code, expected, message) => {
    const log = logger();
    const response = render(Object.assign(new Error(message), { code }), log);
    expect(response.problem).toMatchObject({ status: 400, title: 'Bad Request', code: expected });
    expect(response.body).not.toContain(message.slice(0, 20));
    expect(log.error).not.toHaveBeenCalled();
  });

  it('renders anything else as 500 internal, logging the cause and leaking nothing', () => {
    const log = logger();
    const cause = new Error('connection to 10.0.0.5 lost');
    const response = render(cause, log);
    expect(response.problem).toMatchObject({ status: 500, title: 'Internal Server Error', code: 'internal' });
    expect(response.body).not.toContain('10.0.0.5');
    expect(response.body).not.toContain('at ');
    expect(log.error).toHaveBeenCalledWith(expect.any(String), cause);
  });

  it('does not log expected errors', () => {
    const log = logger();
    render(storeError('invalid_body', 'bad'), log);
    render(new StoreError(501, 'not_implemented', 'later'), log);
    expect(log.error).not.toHaveBeenCalled();
  });

  it.each(Object.entries(ERROR_CODES))('titles %s with the reason phrase of its status', (code, status) => {
    const title = titleForStatus(status);
    expect(render(new StoreError(status, code, 'x')).problem).toMatchObject({ status, title, code });
  });

  it.each([
    [new AuthLikeError(502, 'mail_failed', 'The message could not be sent'), 'Bad Gateway'],
    [new AuthLikeError(422, 'title_taken', 'Taken.'), 'Unprocessable Content'],
  ])('titles a package error by its status: %s', (error, title) => {
    expect(render(error).problem).toMatchObject({ status: error.status, code: error.code, title });
  });

  it('titles a code outside the table by its status', () => {
    expect(render(new StoreError(404, 'page_missing', 'x')).problem.title).toBe('Not Found');
  });
});
