import { describe, expect, it } from 'vitest';
import { HOOK_FAILURE_DETAIL, HOOK_REFUSAL_DETAIL, toHookError } from './hook-error';
import { StoreError } from './store-error';

const thrown = (message: string, extra: Record<string, unknown>) => Object.assign(new Error(message), extra);

describe('toHookError', () => {
  it.each([
    [{ status: 403 }, 403, 'forbidden'],
    [{ status: 422, code: 'too_short' }, 422, 'too_short'],
    [{ status: 451, code: 'banned_user' }, 451, 'banned_user'],
    [{ status: 400, code: 'Not Snake' }, 400, 'bad_request'],
    [{ status: 409, code: 'ERR_X' }, 409, 'conflict'],
    [{ status: 422 }, 422, 'unprocessable'],
    [{ status: 402 }, 402, 'rejected'],
    [{ status: 418 }, 418, 'rejected'],
  ])('turns an error with %o into a %i %s carrying its message', (extra, status, code) => {
    expect(toHookError(thrown('Nope.', extra))).toMatchObject({ status, code, detail: 'Nope.' });
  });

  it.each([
    ['no status', thrown('x is undefined', {})],
    ['a status below 400', thrown('boom', { status: 302 })],
    ['a status above 599', thrown('boom', { status: 600 })],
    ['a status that is no integer', thrown('boom', { status: '403' })],
    ['a value that is no error', 'nope'],
  ])('refuses with 403 forbidden and a fixed detail for %s, keeping the cause', (_name, error) => {
    const answer = toHookError(error);
    expect(answer).toMatchObject({ status: 403, code: 'forbidden', detail: HOOK_REFUSAL_DETAIL });
    expect(answer.cause).toBe(error);
    expect(answer.detail).not.toContain('boom');
  });

  it.each([
    [{ status: 500 }, 500, 'internal'],
    [{ status: 503 }, 503, 'service_unavailable'],
    [{ status: 502, code: 'upstream_down' }, 502, 'upstream_down'],
    [{ status: 599 }, 599, 'rejected'],
  ])('keeps the message of an error with %o out of its %i %s, keeping the cause', (extra, status, code) => {
    const error = thrown('connect ECONNREFUSED 10.0.0.7:5432', extra);
    const answer = toHookError(error);
    expect(answer).toMatchObject({ status, code, detail: HOOK_FAILURE_DETAIL });
    expect(answer.cause).toBe(error);
  });

  it('passes a StoreError (or a subclass) through unchanged', () => {
    class PackageError extends StoreError {}
    const error = new PackageError(404, 'user_not_found', 'gone');
    expect(toHookError(error)).toBe(error);
  });
});
