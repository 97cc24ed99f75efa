import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { idKey, idVariants, idVariantsOf, isObjectId } from '../src/index';

const HEX = '64b7f0c2a1b2c3d4e5f60718';

describe('idVariants', () => {
  it('gives a string and the integer it spells', () => {
    expect(idVariants('1')).toEqual(['1', 1]);
    expect(idVariants('-12')).toEqual(['-12', -12]);
  });

  it.each(['01', '1.5', '1e3', ' 1', '9007199254740993', 'abc'])('keeps %j a plain string', (text) => {
    expect(idVariants(text)).toEqual([text]);
  });

  it('gives a number and its string form', () => {
    expect(idVariants(7)).toEqual([7, '7']);
  });

  it('gives 24 hex digits as string and ObjectId', () => {
    const variants = idVariants(HEX);
    expect(variants).toHaveLength(2);
    expect(variants[0]).toBe(HEX);
    expect(variants[1]).toEqual(new ObjectId(HEX));
  });

  it('adds the lower-case string for upper-case hex', () => {
    const variants = idVariants(HEX.toUpperCase());
    expect(variants.slice(0, 2)).toEqual([HEX.toUpperCase(), HEX]);
    expect(variants[2]).toEqual(new ObjectId(HEX));
  });

  it('gives an ObjectId and its hex string', () => {
    const id = new ObjectId(HEX);
    expect(idVariants(id)).toEqual([id, HEX]);
  });

  it.each([null, undefined, true, Number.NaN, Number.POSITIVE_INFINITY, { _id: 1 }, [1], new Date(0)])(
    'gives nothing for %j',
    (value) => {
      expect(idVariants(value)).toEqual([]);
    },
  );
});

describe('idKey', () => {
  it.each([
    [1, '1'],
    ['1', '1'],
    [new ObjectId(HEX), HEX],
    [HEX, HEX],
    [HEX.toUpperCase(), HEX],
  ])('maps %j to %j', (value, key) => {
    expect(idKey(value)).toBe(key);
  });

  it('agrees on every variant of an id', () => {
    for (const id of [5, '5', HEX, new ObjectId(HEX), 'name']) {
      const keys = new Set(idVariants(id).map(idKey));
      expect(keys.size).toBe(1);
    }
  });

  it.each([null, true, {}, Number.NaN])('has no key for %j', (value) => {
    expect(idKey(value)).toBeUndefined();
  });
});

describe('idVariantsOf', () => {
  it('lists each variant once', () => {
    expect(idVariantsOf([1, '1', 2])).toEqual([1, '1', 2, '2']);
  });

  it('keeps every spelling of one hex id, whichever comes first', () => {
    const upper = HEX.toUpperCase();
    for (const ids of [
      [HEX, upper],
      [upper, HEX],
      [new ObjectId(HEX), upper, HEX],
    ]) {
      const variants = idVariantsOf(ids);
      expect(variants).toHaveLength(3);
      expect(variants).toEqual(expect.arrayContaining([HEX, upper, new ObjectId(HEX)]));
    }
  });

  it('skips ids of kinds that never join', () => {
    expect(idVariantsOf([null, true, 3])).toEqual([3, '3']);
  });
});

describe('isObjectId', () => {
  it('recognizes an ObjectId by shape, not by class identity', () => {
    expect(isObjectId(new ObjectId())).toBe(true);
    expect(isObjectId({ _bsontype: 'ObjectId', toHexString: () => HEX })).toBe(true);
    expect(isObjectId({ _bsontype: 'ObjectId' })).toBe(false);
    expect(isObjectId(HEX)).toBe(false);
  });
});
