/** The import's fast Extended JSON reader answers what bson's `EJSON.parse` (relaxed) answers. */
import { Binary, Decimal128, EJSON, Long, ObjectId, Timestamp } from 'bson';
import { describe, expect, it } from 'vitest';
import { parseExtendedJson } from '../src/extended-json';

const relaxed = (text: string) => EJSON.parse(text, { relaxed: true });

describe('parseExtendedJson', () => {
  it.each([
    ['plain documents', '{"posts":[{"id":1,"title":"a","tags":["x",{"y":[1,2.5,null,true]}]}]}'],
    [
      'every BSON type store export writes',
      EJSON.stringify(
        {
          posts: [
            {
              _id: new ObjectId('65a1b2c3d4e5f60718293a4b'),
              at: new Date('2030-01-01T00:00:00Z'),
              big: Long.fromString('9007199254740993'),
              small: Long.fromNumber(7),
              price: Decimal128.fromString('1.10'),
              bytes: new Binary(Buffer.from('hi')),
              when: new Timestamp({ t: 1, i: 2 }),
              pattern: /a.c/i,
              nested: [{ deep: { at: new Date(0) } }],
            },
          ],
        },
        { relaxed: true },
      ),
    ],
    [
      'canonical numbers',
      '{"a":[{"n":{"$numberInt":"3"},"d":{"$numberDouble":"2.5"},"l":{"$numberLong":"4"}}]}',
    ],
    ['a top-level array of values', '[1,"two",{"$oid":"65a1b2c3d4e5f60718293a4b"}]'],
    [
      'a $ member written escaped',
      '{"a":[{"at":{"\\u0024date":"2030-01-01T00:00:00Z"},"n":{"\\u0024numberLong":"4"}}]}',
    ],
    ['a $ in values only', '{"a":[{"price":"$5","note":"\\u0024 sign"}]}'],
    ['a bare value', '"text"'],
  ])('reads %s as EJSON.parse does', (_, text) => {
    expect(parseExtendedJson(text)).toEqual(relaxed(text));
  });

  it('keeps a member named __proto__ a member, never a prototype', () => {
    const parsed = parseExtendedJson(
      '{"a":[{"__proto__":{"at":{"$date":"2030-01-01T00:00:00Z"}},"b":1}]}',
    ) as {
      a: Array<Record<string, unknown>>;
    };
    const doc = parsed.a[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.hasOwn(doc, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(doc, '__proto__')?.value).toEqual({
      at: new Date('2030-01-01T00:00:00Z'),
    });
  });

  it('throws on text that is not JSON', () => {
    expect(() => parseExtendedJson('{"a":')).toThrow(SyntaxError);
  });
});
