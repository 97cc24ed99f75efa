import { isStoreError } from '@store/common';
import { describe, expect, it } from 'vitest';
import { checkHiddenQuery } from './hidden';

const HIDDEN = ['secret', 'meta.internal', 'cards.cvv'];

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
    ['a field inside an array, by its path', { 'cards.cvv': '123' }],
    ['a field inside an array, by position', { 'cards.0.cvv': '123' }],
    ['a field inside an array, by a positional operator', { 'cards.$.cvv': '123' }],
    ['a field inside an array, by all positions', { 'cards.$[].cvv': { $exists: true } }],
    ['a field inside an array, by a regex', { 'cards.1.cvv': { $regex: '^1' } }],
    ['an array element holding it', { 'cards.0': { cvv: '123' } }],
    ['the array holding it, by $elemMatch', { cards: { $elemMatch: { cvv: '123' } } }],
    ['the array holding it, by $size', { cards: { $size: 1 } }],
    ['the array holding it under $not', { $nor: [{ cards: { $not: { $elemMatch: { cvv: 1 } } } }] }],
  ])('refuses a filter on %s with invalid_query', (_name, filter) => {
    expect(refusal(filter)).toMatch(/^invalid_query: .*hidden/);
  });

  it.each(['secret', 'cards.cvv', 'cards.0.cvv', 'cards'])('refuses a $sort on %s', (field) => {
    expect(refusal({}, { [field]: 1, _id: 1 })).toMatch(/^invalid_query: .*hidden/);
  });

  it.each([
    ['other fields', { title: 'a', 'meta.public': 1 }],
    ['a field whose name only starts like a hidden one', { secretive: 1 }],
    ['another field of the array elements', { 'cards.0.number': '4242', 'cards.name': 'x' }],
    ['$text', { $text: { $search: 'secret' } }],
  ])('accepts %s', (_name, filter) => {
    expect(refusal(filter, { title: 1 })).toBeUndefined();
  });
});
