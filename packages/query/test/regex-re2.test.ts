/**
 * Every regex the compiler accepts runs on RE2 (the embedded engine's linear-time matcher,
 * through re2js): on generated patterns mixing every construct the compiler rewrites or
 * refuses, either the compiler refuses the pattern or RE2 compiles what it emits.
 */

import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { compileQuery, isQueryError } from '../src/index';
import { portablePattern } from '../src/regex-syntax';

const PIECES = [
  ...['a', 'b', '.', '^', '$', '|', '(', ')', '(?:', '(?<n>', '(?=', '(?<=', '(?!', '[', ']', '[^', '-'],
  ...['*', '+', '?', '{2}', '{1,3}', '{,2}', '{1000}', '{999}', '{10}', '\\', '\\d', '\\w', '\\s', '\\S'],
  ...[
    '\\b',
    '\\B',
    '\\1',
    '\\k<n>',
    '\\z',
    '\\A',
    '\\x41',
    '\\cJ',
    '\\0',
    '\\n',
    '\\t',
    '\\.',
    '\\/',
    'é',
    '😀',
  ],
  ...[' ', '#', '\n', '\\é', '(?i)', '(?>', '*+', '\\u0041', '\\p{L}'],
];

/** The RE2 flags for the compiled `$options`. */
const flagsOf = (options: string | undefined) =>
  (options?.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (options?.includes('m') ? RE2JS.MULTILINE : 0);

describe('regexes the compiler accepts', () => {
  it('all compile on RE2', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }),
        fc.subarray(['i', 'm', 's', 'x']),
        (pieces, flags) => {
          const query = `$regex=${encodeURIComponent(JSON.stringify(['t', pieces.join(''), flags.join('')]))}`;
          let condition: { $regex: string; $options?: string };
          try {
            condition = compileQuery(query).filter.t as typeof condition;
          } catch (error) {
            if (isQueryError(error) && error.status === 400) return;
            throw error;
          }
          expect(() => RE2JS.compile(condition.$regex, flagsOf(condition.$options))).not.toThrow();
        },
      ),
      { numRuns: 5000 },
    );
  });

  const FLAGS = { extended: false, dotAll: false, multiline: false };
  it.each([
    ['(a{10}){101}', '{101}'],
    ['((a{10}){10}){11}', '{11}'],
    ['(?:a{500}|b){3,}', '{3,}'],
  ])('%s is refused as unsafe_regex: nested repeats past 1000, which RE2 refuses', (pattern, construct) => {
    expect(portablePattern(pattern, FLAGS)).toEqual({
      refused: expect.stringContaining(`${construct} repeats a part already repeated`),
      code: 'unsafe_regex',
    });
    expect(() => RE2JS.compile(pattern)).toThrow(/invalid repeat count/);
  });

  it.each(['(a{10}){100}', '(a{10}){0,100}', '(a{1000})*', '(?:a{2}b{500}){2}'])(
    '%s is kept, as RE2 runs it (safe-regex2 refuses it as nested quantifiers)',
    (pattern) => {
      expect(portablePattern(pattern, FLAGS)).toEqual({ source: pattern });
      expect(() => RE2JS.compile(pattern)).not.toThrow();
    },
  );
});
