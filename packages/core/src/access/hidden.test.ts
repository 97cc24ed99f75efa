import { isStoreError } from '@store/common';
import { describe, expect, it } from 'vitest';
import { checkHiddenQuery } from './hidden';

const HIDDEN = ['secret', 'meta.internal'];

function refusal(filter: Record<string, unknown>, sort?: Record<string, 1 | -1>): string | undefined {
  try {
    checkHiddenQuery('notes', HIDDEN, filter, sort);
    return undefined;
  } catch (error) {
    if (!isStoreError(error)) throw error;
    return `${error.code}: ${error.detail}`;
  }
}

describe('checkHiddenQuery', () => {
  it.each([
    ['the field', { secret: 'x' }],
    ['a path inside it', { 'secret.part': 'x' }],
    ['an object holding it', { meta: { internal: 1 } }],
    ['the field under $or', { $or: [{ title: 'a' }, { secret: 'x' }] }],
    ['the field under $and inside $nor', { $nor: [{ $and: [{ 'meta.internal': { $gt: 1 } }] }] }],
    ['the field inside $elemMatch', { meta: { $elemMatch: { internal: 1 } } }],
  ])('refuses a filter on %s with invalid_query', (_name, filter) => {
    expect(refusal(filter)).toMatch(/^invalid_query: .*hidden/);
  });

  it('refuses a $sort on a hidden field', () => {
    expect(refusal({}, { secret: 1, _id: 1 })).toMatch(/^invalid_query: "secret"/);
  });

  it.each([
    ['other fields', { title: 'a', 'meta.public': 1 }],
    ['a field whose name only starts like a hidden one', { secretive: 1 }],
    ['$text', { $text: { $search: 'secret' } }],
  ])('accepts %s', (_name, filter) => {
    expect(refusal(filter, { title: 1 })).toBeUndefined();
  });
});
