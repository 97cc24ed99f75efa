import fc from 'fast-check';
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { parseFlat } from './parse';

const QS_OPTIONS = {
  ignoreQueryPrefix: true,
  depth: 1,
  arrayLimit: 100,
  parameterLimit: 1000,
  throwOnLimitExceeded: true,
  allowPrototypes: false,
  plainObjects: true,
  allowDots: false,
  duplicates: 'combine',
} as const;

const CHARS = [
  'a',
  'b',
  '$',
  ':',
  '.',
  '=',
  '&',
  '+',
  '%',
  '2',
  '0',
  '5',
  'B',
  'D',
  '[',
  ']',
  '?',
  ' ',
  'é',
  '_',
];
const TEXT = fc.array(fc.constantFrom(...CHARS), { maxLength: 24 }).map((c) => c.join(''));

describe('parseFlat (the fast path of parsing)', () => {
  it('agrees with qs whenever it answers', () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.oneof(TEXT, fc.string({ maxLength: 20 })), (input) => {
        let expected: unknown;
        try {
          expected = qs.parse(input, QS_OPTIONS);
        } catch {
          return;
        }
        const flat = parseFlat(input);
        if (flat === undefined) return;
        answered++;
        expect(flat).toStrictEqual(expected);
      }),
      { numRuns: 20000 },
    );
    expect(answered).toBeGreaterThan(1000);
  });

  // The shapes a random string seldom builds: one name with and without `[]`, empty values,
  // parts without `=`, in any order (`a[]=&a=` made `pnpm test` red about once in eight runs).
  const PART = fc
    .tuple(
      fc.constantFrom('a', 'a[]', 'b', 'b[]', 'a%20', 'a+', '__proto__', '__proto__[]', ''),
      fc.constantFrom('', '=', '=x', '=1', '=%20', '=+', '=a=b'),
    )
    .map(([key, value]) => `${key}${value}`);
  const NAMED = fc.array(PART, { maxLength: 8 }).map((parts) => parts.join('&'));

  it('agrees with qs on one name given with and without [], empty values included', () => {
    fc.assert(
      fc.property(fc.oneof(NAMED, fc.constant('a[]=&a=')), (input) => {
        const flat = parseFlat(input);
        expect(flat).toBeDefined();
        expect(flat).toStrictEqual(qs.parse(input, QS_OPTIONS));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['a[]=&a=', { a: [''] }],
    ['a[]=x&a=', { a: ['x'] }],
    ['a=&a[]=x', { a: ['', 'x'] }],
    ['a[]=&a=&a=', { a: ['', '', ''] }],
    ['a[]=1&a=2&a[]=3', { a: ['1', '3', '2'] }],
  ])('reads %s as qs does', (input, expected) => {
    expect({ ...parseFlat(input) }).toEqual(expected);
  });

  it('hands bracketed keys other than a trailing [] to qs', () => {
    expect(parseFlat('a[b]=1')).toBeUndefined();
    expect(parseFlat('a%5B%24ne%5D=1')).toBeUndefined();
    expect(parseFlat('a[]=1&a=2&b[]=3')).toEqual({ a: ['1', '2'], b: ['3'] });
  });
});
