import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { aliasFilter } from './ids';

const HEX = '65f0c0ffee0000000000beef';

describe('aliasFilter', () => {
  it.each<[string, unknown, unknown]>([
    ['a number: its decimal string', 7, { _id: '7' }],
    ['an integer string: its number', '-12', { _id: -12 }],
    ['a hex string: its ObjectId', HEX, { _id: ObjectId.createFromHexString(HEX) }],
    ['an ObjectId: its hex in any case', new ObjectId(HEX), { _id: { $regex: `^${HEX}$`, $options: 'i' } }],
  ])('finds for %s', (_what, id, filter) => {
    expect(aliasFilter(id)).toEqual(filter);
  });

  it.each<[string, unknown]>([
    ['a string no path reads otherwise', 'a'],
    ['a zero-padded number string', '07'],
    ['an integer string past the safe range', '9007199254740993'],
    ['a fraction', 7.5],
  ])('answers null for %s', (_what, id) => {
    expect(aliasFilter(id)).toBeNull();
  });
});
