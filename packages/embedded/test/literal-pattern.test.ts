/**
 * Plain-text patterns answered by string search give RE2's answer exactly: on a table of texts
 * with the characters case folding treats specially (ß, ſ, the Kelvin sign, İ, ı, Σ/ς, ﬀ, an
 * astral character) and on generated patterns and texts; a real pattern is never taken for text.
 */
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { linearRegExp } from '../src/linear-regex';
import { literalTest } from '../src/literal-pattern';

/** RE2's own answer, the reference. */
function re2(source: string, flags: string, text: string): boolean {
  return RE2JS.compile(source, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0).test(text);
}

const escaped = (text: string) => text.replace(/[\\.^$|?*+()[\]{}]/g, '\\$&');

const TEXTS = [
  '',
  'Strasse',
  'STRASSE',
  'straße',
  'ſtraſſe',
  'KELVIN',
  '\u212Aelvin',
  'İstanbul',
  'istanbul',
  'ıstanbul',
  'ΣΊΣΥΦΟΣ',
  'σίσυφος',
  'oﬀ',
  'OFF',
  'a.b',
  'axb',
  'line\nend',
  '😀 smile',
  'Ünïcödé',
];

const PATTERNS: Array<[string, string]> = [
  ['s', 'i'],
  ['ss', 'i'],
  ['strasse', 'i'],
  ['k', 'i'],
  ['kelvin', 'i'],
  ['^istanbul', 'i'],
  ['i', 'i'],
  ['σ', 'i'],
  ['off', 'i'],
  ['ff', ''],
  [escaped('a.b'), 'i'],
  [escaped('a.b'), ''],
  ['end$', ''],
  ['end$', 'i'],
  ['^line', ''],
  ['^$', ''],
  ['😀', ''],
  ['smile$', 'i'],
  ['ünï', 'i'],
  ['Ünï', ''],
];

describe('plain-text patterns', () => {
  it.each(PATTERNS)('/%s/%s answers as RE2 on every text of the table', (source, flags) => {
    const pattern = linearRegExp(source, flags);
    for (const text of TEXTS) expect([text, pattern.test(text)]).toEqual([text, re2(source, flags, text)]);
  });

  it('answers as RE2 on generated literals and texts', () => {
    const alphabet = fc.constantFrom(
      'a',
      'A',
      'k',
      'K',
      's',
      'S',
      'i',
      'I',
      'ß',
      'ſ',
      '\u212A',
      'İ',
      'ı',
      '.',
      '$',
      '^',
      '\n',
      ' ',
      'é',
    );
    const text = fc.array(alphabet, { maxLength: 8 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(
        text,
        text,
        fc.constantFrom('', 'i'),
        fc.constantFrom('', '^', '$', '^$'),
        (literal, haystack, flags, anchors) => {
          const source = `${anchors.startsWith('^') ? '^' : ''}${escaped(literal)}${anchors.endsWith('$') ? '$' : ''}`;
          expect(linearRegExp(source, flags).test(haystack)).toBe(re2(source, flags, haystack));
        },
      ),
      { numRuns: 3000, seed: 20261127 },
    );
  });

  it('takes only escaped text, at most anchored, with no flag but i, for a string search', () => {
    expect(literalTest(escaped('a.b'), 'i')).toBeDefined();
    expect(literalTest('^abc$', '')).toBeDefined();
    for (const [source, flags] of [
      ['a.b', ''],
      ['a|b', ''],
      ['a\\d', ''],
      ['ab*', ''],
      ['[ab]', ''],
      ['abc', 'm'],
      ['abc', 's'],
      ['ünï', 'i'],
      ['a\\\\$', ''],
    ]) {
      expect([source, flags, literalTest(source as string, flags as string)]).toEqual([
        source,
        flags,
        undefined,
      ]);
    }
  });
});
