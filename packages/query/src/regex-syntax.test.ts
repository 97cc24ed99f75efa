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

describe('regex syntax PCRE (MongoDB) and JavaScript (embedded engine) read differently', () => {
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
    ['(a)\\1', '\\1'],
    ['\\012', '\\0'],
    ['(?<n>a)\\k<n>', '\\k'],
    ['a++', '++'],
    ['a*+', '*+'],
    ['a{2}+', '{2}+'],
    ['(?>ab)', '(?>'],
    ['(?i)abc', '(?i)'],
    ['(?-i:a)', '(?-i:'],
    ['(?#note)a', '(?#'],
    ['(?P<n>a)', '(?P'],
    ['(?|(a)|(b))', '(?|'],
    ['(?R)', '(?R'],
    ['(*UCP)\\w', '(*UCP)'],
    ['a{,3}', '{'],
    ['a{', '{'],
    ['a{70000}', '{70000}'],
    ['[[:alpha:]]', '[:'],
    ['[]a]', '[]'],
    ['[^]a]', '[^]'],
    ['[\\S]', '\\S inside'],
    ['[\\w-z]', '\\w next to -'],
    ['(?<=a+)b', '+ inside (?<='],
    ['(?<=a{1,2})b', '{1,2} inside (?<='],
    ['(?<=x(a|bc))b', '| inside a group inside (?<='],
    ['(?=a)*b', '*'],
    ['😀+', '😀+'],
    ['[😀]', '[😀]'],
  ])('refuses %s, naming %s', (pattern, construct) => {
    const error = errorOf(regexParam(pattern));
    expect(error).toMatchObject({ status: 400, code: 'invalid_query', parameter: '$regex' });
    expect(error.detail).toContain(`in the regex, ${construct}`);
  });

  it.each([
    ['^abc$', '', '^abc(?![\\s\\S])'],
    ['a.b', '', 'a[^\\n]b'],
    ['a.b', 's', 'a[\\s\\S]b'],
    ['a\\sb\\S', '', 'a[\\t\\n\\x0B\\f\\r ]b[^\\t\\n\\x0B\\f\\r ]'],
    ['[\\s,]', '', '[\\t\\n\\x0B\\f\\r ,]'],
    ['^a$', 'm', '(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))a(?=\\n|(?![\\s\\S]))'],
    ['a b # c', 'x', 'ab'],
    ['\\d+\\w*\\b\\.\\x41\\cJ\\0', '', '\\d+\\w*\\b\\.\\x41\\cJ\\0'],
    ['(?:ab)+(?<n>c)(?=d)(?!e)', '', '(?:ab)+(?<n>c)(?=d)(?!e)'],
    ['(?<=ab|c)d(?<!x)', '', '(?<=ab|c)d(?<!x)'],
    ['a{2}b{1,}c{1,3}?', '', 'a{2}b{1,}c{1,3}?'],
    ['(?:😀)+é', '', '(?:😀)+é'],
  ])('rewrites %s (flags "%s") to %s, which both read alike', (pattern, flags, source) => {
    const { filter } = compileQuery(regexParam(pattern, flags));
    expect(filter).toEqual({ t: { $regex: source } });
  });

  it('keeps only the i flag: x, s and m are applied to the pattern', () => {
    expect(compileQuery(regexParam('^a', 'imsx')).filter).toEqual({
      t: { $regex: '(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))a', $options: 'i' },
    });
  });

  const raw = (json: string) => q(['$query', json]);
  it.each([
    ['$regex in $query', raw('{"t":{"$regex":"\\\\Aa"}}')],
    ['$regex with $options in $query', raw('{"t":{"$regex":"a++","$options":"i"}}')],
    ['a BSON regex in $query', raw('{"t":{"$regularExpression":{"pattern":"(?i)a","options":""}}}')],
    ['$not with a regex', raw('{"t":{"$not":{"$regex":"\\\\p{L}"}}}')],
    ['$not with a BSON regex', raw('{"t":{"$not":{"$regularExpression":{"pattern":"\\\\z","options":""}}}}')],
    [
      'a regex member of $in',
      raw('{"t":{"$in":["x",{"$regularExpression":{"pattern":"\\\\h","options":""}}]}}'),
    ],
    [
      'a regex member of $nin',
      raw('{"t":{"$nin":[{"$regularExpression":{"pattern":"(?>a)","options":""}}]}}'),
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
    expect(filter).toEqual({ t: { $in: [/^a(?![\s\S])/i] } });
  });
});
