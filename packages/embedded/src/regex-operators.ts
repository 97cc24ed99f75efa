/**
 * `$regex` and `$all` with their patterns run by RE2 ({@link LinearRegExp}). `$regex` is
 * mingo's, with a boolean test instead of `exec` (RE2 then needs no capture groups); `$all` is
 * mingo's, handed linear patterns. `$in` and `$nin` do the same in `in-operator.ts`; `$not`
 * and `$elemMatch` compile their inner conditions through these operators.
 */

import type { Document } from '@store/common';
import type { ArrayOrObject } from 'mingo/types';
import { EmbeddedDbError } from './errors';
import type { QueryOperator } from './in-operator';
import { linearMembers, linearRegExp } from './linear-regex';
import { queryOperators, resolve } from './mingo';

const mingoAll = queryOperators.$all as unknown as QueryOperator;
const RESOLVE = { unwrapArray: true } as const;

/**
 * `{ field: { $regex } }` (mingo has already joined `$options` into a RegExp): as mingo's, the
 * document matches when a string at the path, or in an array there, matches.
 */
export const $regex: QueryOperator = (selector, operand) => {
  if (!(operand instanceof RegExp) && typeof operand !== 'string')
    throw new EmbeddedDbError('BadValue', '$regex has to be a string');
  const pattern = linearRegExp(operand);
  const match = (value: unknown) => typeof value === 'string' && pattern.test(value);
  return (doc: Document) => {
    const found = resolve(doc as ArrayOrObject, selector, RESOLVE);
    const values = Array.isArray(found) ? found : [found];
    return values.some(match) || values.flat(1).some(match);
  };
};

/** `{ field: { $all: [...] } }`: regex members tested by RE2. */
export const $all: QueryOperator = (selector, operand, options) =>
  mingoAll(selector, linearMembers(operand), options);
