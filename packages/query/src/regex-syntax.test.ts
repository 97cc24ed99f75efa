import { describe, expect, it } from 'vitest';
import { compileQuery, isQueryError, type QueryError } from './index';

const q = (...pairs: [string, string][]) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

function errorOf(query: string): QueryError {
  try {
    compileQuery(query);
  } catch (error) {
    if (isQueryError(error)) return error;
    throw error;
  }
  throw new Error(`${query} compiled`);
}

const regexParam = (pattern: string, flags = '') => q(['$regex', JSON.stringify(['t', pattern, flags])]);

describe('regex syntax PCRE (MongoDB) and RE2 (embedded engine) read differently', () => {
  it.each([
    ['\\u0041', '\\u'],
    ['\\Aabc', '\\A'],
    ['abc\\Z', '\\Z'],
    ['abc\\z', '\\z'],
    ['\\Ga', '\\G'],
    ['a\\hb', '\\h'],
    ['a\\Hb', '\\H'],
    ['a\\vb', '\\v'],
    ['a\\Rb', '\\R'],
    ['a\\Kb', '\\K'],
    ['\\Q.*\\E', '\\Q'],
    ['\\p{L}', '\\p'],
    ['\\P{L}', '\\P'],
    ['\\X', '\\X'],
    ['\\x{41}', '\\x'],
    ['\\xA', '\\x'],
    ['\\c1', '\\c'],
    ['\\e', '\\e'],
    ['\\y', '\\y'],
    ['\\012', '\\0'],
    ['(?i)abc', '(?i)'],
    ['(?-i:a)', '(?-i:'],
    ['(?#note)a', '(?#'],
    ['(?P<n>a)', '(?P'],
    ['(?|(a)|(b))', '(?|'],
    ['(*UCP)\\w', '(*UCP)'],
    ['a{,3}', '{'],
    ['a{', '{'],
    ['a{70000}', '{70000}'],
    ['[[:alpha:]]', '[:'],
    ['[]a]', '[]'],
    ['[^]a]', '[^]'],
    ['[\\S]', '\\S inside'],
    ['[\\w-z]', '\\w next to -'],
    ['😀+', '😀+'],
    ['a\\éb', '\\é'],
    ['a{1001}', '{1001}'],
    ['[😀]', '[😀]'],
  ])('refuses %s, naming %s', (pattern, construct) => {
    const error = errorOf(regexParam(pattern));
    expect(error).toMatchObject({ status: 400, code: 'invalid_query', parameter: '$regex' });
    expect(error.detail).toContain(`in the regex, ${construct}`);
  });

  it.each([
    ['(a)\\1', '\\1 is a backreference'],
    ['(?<n>a)\\k<n>', '\\k is a named backreference'],
    ['(a)\\g1', '\\g is a backreference'],
    ['(?=a)b', '(?= is a lookahead'],
    ['a(?!b)', '(?! is a lookahead'],
    ['(?=a)*b', '(?= is a lookahead'],
    ['(?<=a)b', '(?<= is a lookbehind'],
    ['(?<!a)b', '(?<! is a lookbehind'],
    ['(?<=ab|c)d', '(?<= is a lookbehind'],
    ['(?>ab)', '(?> is an atomic group'],
    ['a++', '++ is a possessive quantifier'],
    ['a*+', '*+ is a possessive quantifier'],
    ['a{2}+', '{2}+ is a possessive quantifier'],
    ['(?R)', '(?R is a subroutine call or recursion'],
    ['(?1)', '(?1 is a subroutine call or recursion'],
    ['(?(1)a|b)', '(?( is a conditional group'],
  ])('refuses %s as unsafe_regex: %s, which RE2 cannot run', (pattern, construct) => {
    const error = errorOf(regexParam(pattern));
    expect(error).toMatchObject({ status: 400, code: 'unsafe_regex', parameter: '$regex' });
    expect(error.detail).toContain(`in the regex, ${construct}, which RE2 (linear-time matching) cannot run`);
  });

  it('refuses a lookaround or backreference inside $query as unsafe_regex too', () => {
    const error = errorOf(q(['$query', '{"t":{"$not":{"$regex":"(?<!x)a"}}}']));
    expect(error).toMatchObject({ status: 400, code: 'unsafe_regex', parameter: '$query' });
    expect(error.detail).toContain('(?<! is a lookbehind');
  });

  it.each([
    ['^abc$', '', '^abc\\z'],
    ['a$|^b$$', '', 'a\\z|^b\\z\\z'],
    ['(a$)\\n', '', '(a\\z)\\n'],
    ['a.b', '', 'a[^\\n]b'],
    ['a.b', 's', 'a[\\s\\S]b'],
    ['a\\sb\\S', '', 'a[\\t\\n\\x0B\\f\\r ]b[^\\t\\n\\x0B\\f\\r ]'],
    ['[\\s,]', '', '[\\t\\n\\x0B\\f\\r ,]'],

    ['a b # c', 'x', 'ab'],
    ['\\d+\\w*\\b\\.\\x41\\cJ\\ca\\0', '', '\\d+\\w*\\b\\.\\x41\\x0A\\x01\\0'],
    ['(?:ab)+(?<n>c)', '', '(?:ab)+(?<n>c)'],
    ['a{1000}', '', 'a{1000}'],
    ['a{2}b{1,}c{1,3}?', '', 'a{2}b{1,}c{1,3}?'],
    ['(?:😀)+é', '', '(?:😀)+é'],
  ])('rewrites %s (flags "%s") to %s, which both read alike', (pattern, flags, source) => {
    const { filter } = compileQuery(regexParam(pattern, flags));
    expect(filter).toEqual({ t: { $regex: source } });
  });

  it('keeps the i and m flags: x and s are applied to the pattern', () => {
    expect(compileQuery(regexParam('^a . b$', 'imsx')).filter).toEqual({
      t: { $regex: '^a[\\s\\S]b$', $options: 'im' },
    });
  });

  it('keeps ^ and $ as they are under m, where PCRE and RE2 read them alike', () => {
    expect(compileQuery(regexParam('^a$b', 'm')).filter).toEqual({ t: { $regex: '^a$b', $options: 'm' } });
  });

  const raw = (json: string) => q(['$query', json]);
  it.each([
    ['$regex in $query', raw('{"t":{"$regex":"\\\\Aa"}}')],
    ['$regex with $options in $query', raw('{"t":{"$regex":"a\\\\Z","$options":"i"}}')],
    ['a BSON regex in $query', raw('{"t":{"$regularExpression":{"pattern":"(?i)a","options":""}}}')],
    ['$not with a regex', raw('{"t":{"$not":{"$regex":"\\\\p{L}"}}}')],
    ['$not with a BSON regex', raw('{"t":{"$not":{"$regularExpression":{"pattern":"\\\\z","options":""}}}}')],
    [
      'a regex member of $in',
      raw('{"t":{"$in":["x",{"$regularExpression":{"pattern":"\\\\h","options":""}}]}}'),
    ],
    [
      'a regex member of $nin',
      raw('{"t":{"$nin":[{"$regularExpression":{"pattern":"(?#c)a","options":""}}]}}'),
    ],
    [
      'a regex member of $all',
      raw('{"t":{"$all":[{"$regularExpression":{"pattern":"\\\\u0041","options":""}}]}}'),
    ],
  ])('applies wherever a regex enters: %s', (_, query) => {
    const error = errorOf(query);
    expect(error).toMatchObject({ status: 400, code: 'invalid_query', parameter: '$query' });
    expect(error.detail).toContain('in the regex,');
  });

  it('rewrites a regex member of $in too', () => {
    const { filter } = compileQuery(
      raw('{"t":{"$in":[{"$regularExpression":{"pattern":"^a$","options":"i"}}]}}'),
    );
    // biome-ignore lint/complexity/useRegexLiterals: as a literal, the linter drops \z (the end, in PCRE and RE2) as a useless escape
    expect(filter).toEqual({ t: { $in: [new RegExp('^a\\z', 'i')] } });
  });
});
