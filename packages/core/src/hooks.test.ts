import { describe, expect, it } from 'vitest';
import { isStoreError, storeError } from './errors';
import { asHookAnswer } from './hooks';

const thrown = (message: string, extra: Record<string, unknown>) => Object.assign(new Error(message), extra);

describe('asHookAnswer', () => {
  it.each([
    [{ status: 403 }, 403, 'forbidden'],
    [{ status: 422, code: 'too_short' }, 422, 'too_short'],
    [{ status: 400, code: 'Not Snake' }, 400, 'bad_request'],
    [{ status: 418 }, 418, 'rejected'],
  ])('turns an error with %o into a %i %s problem carrying its message', (extra, status, code) => {
    const answer = asHookAnswer(thrown('Nope.', extra));
    expect(
      isStoreError(answer) && { status: answer.status, code: answer.code, detail: answer.detail },
    ).toEqual({
      status,
      code,
      detail: 'Nope.',
    });
  });

  it.each([
    ['no status', {}],
    ['a status below 400', { status: 302 }],
    ['a status above 599', { status: 600 }],
    ['a status that is no integer', { status: '403' }],
  ])('leaves an error with %s as it is (a 500)', (_name, extra) => {
    const error = thrown('boom', extra);
    expect(asHookAnswer(error)).toBe(error);
  });

  it('leaves a StoreError as it is', () => {
    const error = storeError('not_found', 'gone');
    expect(asHookAnswer(error)).toBe(error);
  });
});
