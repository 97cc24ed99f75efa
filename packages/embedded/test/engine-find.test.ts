import type { StoreCollection } from '@store/common';
import { compileQuery } from '@store/query';
import { describeEngines } from '@store/test-kit';
import { ObjectId } from 'bson';
import { beforeAll, describe, expect, it } from 'vitest';
import { ids, PEOPLE, REF, seedPeople } from './fixtures';

describeEngines('find and count', (engine) => {
  let people: StoreCollection;
  beforeAll(async () => {
    people = await seedPeople(await engine.createDb());
  });

  describe('filters compiled by @store/query', () => {
    it.each([
      ['name=Ann', ['ann']],
      ['age=40', ['cid']],
      ['age=31&age=25', ['ann', 'bob']],
      ['age:gt=30', ['ann', 'dee']],
      ['age:lte=31', ['ann', 'bob']],
      ['age:gte=25&age:lt=52', ['ann', 'bob']],
      ['age:ne=31', ['bob', 'cid', 'dee']],
      ['age:in[]=25&age:in[]=40', ['bob', 'cid']],
      ['age:nin[]=25&age:nin[]=40', ['ann', 'dee']],
      ['age:eq=40', ['cid']],
      ['age:number=40', []],
      ['active=true', ['ann', 'dee']],
      ['active:bool=false', ['bob']],
      ['active:exists=false', ['cid']],
      ['score:exists=true', ['dee']],
      ['tags:size=2', ['ann']],
      ['tags=c', ['dee']],
      ['name:contains=AN', ['ann', 'dee']],
      ['name:startsWith=d', ['dee']],
      ['name:endsWith=OB', ['bob']],
      ['address.city=Paris', ['ann', 'cid']],
      ['joined:gt:date=2020-01-01', ['bob']],
      ['joined:date=2020-01-01T00:00:00Z', ['ann']],
      [`ref:id=${REF.toHexString()}`, ['ann']],
      ['items.sku=x', ['dee']],
      ['$regex=["name","^[ab]","i"]', ['ann', 'bob']],
      ['$query={"$or":[{"age":{"$lt":30}},{"tags":{"$all":["a","c"]}}]}', ['bob', 'dee']],
      ['$query={"items":{"$elemMatch":{"qty":{"$gte":2}}}}', ['dee']],
      ['$query={"age":{"$type":"string"}}', ['cid']],
      ['$query={"age":{"$not":{"$gt":30}}}', ['bob', 'cid']],
      ['$query={"$nor":[{"active":true}]}', ['bob', 'cid']],
      ['$query={"age":{"$mod":[5,0]}}', ['bob']],
      ['$query={"age":{"$mod":[2,1]}}', ['ann', 'bob']],
      ['$query={"score":null}', ['ann', 'bob', 'cid', 'dee']],
      ['$query={"ref":{"$oid":"0123456789abcdef01234567"}}', ['ann']],
      ['$query={"joined":{"$lt":{"$date":"2020-06-01T00:00:00Z"}}}', ['ann', 'cid']],
    ])('%s', async (query, expected) => {
      const { filter, sort } = compileQuery(query);
      expect(ids(await people.find(filter, { sort }).toArray())).toEqual(expected);
      expect(await people.countDocuments(filter)).toBe(expected.length);
    });
  });

  it('matches _id lookups by key, alone, in $in and ANDed with more conditions', async () => {
    expect(ids(await people.find({ _id: 'bob' }).toArray())).toEqual(['bob']);
    const some = await people
      .find({ _id: { $in: ['dee', 'ann', 'nobody'] } }, { sort: { _id: 1 } })
      .toArray();
    expect(ids(some)).toEqual(['ann', 'dee']);
    expect(ids(await people.find({ _id: { $in: ['ann', 'bob'] }, age: { $gt: 30 } }).toArray())).toEqual([
      'ann',
    ]);
    expect(
      ids(await people.find({ $and: [{ _id: 'ann' }, { _id: { $in: ['ann', 'bob'] } }] }).toArray()),
    ).toEqual(['ann']);
    expect(ids(await people.find({ $and: [{ _id: 'ann' }, { _id: 'bob' }] }).toArray())).toEqual([]);
    expect(ids(await people.find({ _id: { $in: [/^b/] } }).toArray())).toEqual(['bob']);
  });

  it('answers a filter on _id alone as a scan would: each document once, in insertion order, string and ObjectId ids never equal', async () => {
    const oid = new ObjectId();
    const keyed = (await engine.createDb()).collection('keyed');
    await keyed.insertMany([
      { _id: 'b', n: 1 },
      { _id: oid, n: 2 },
      { _id: oid.toHexString(), n: 3 },
      { _id: 'a', n: 4 },
    ]);
    const ns = async (filter: Record<string, unknown>, options = {}) =>
      (await keyed.find(filter, options).toArray()).map((doc) => doc.n);
    expect(await ns({ _id: 'a' })).toEqual([4]);
    expect(await ns({ _id: { $eq: oid } })).toEqual([2]);
    expect(await ns({ _id: oid.toHexString() })).toEqual([3]);
    expect(await ns({ _id: { $in: ['a', 'b', 'a', oid, 'nobody'] } })).toEqual([1, 2, 4]);
    expect(await ns({ _id: { $in: ['a', 'b'] } }, { sort: { _id: -1 } })).toEqual([1, 4]);
    expect(await ns({ _id: { $in: ['a', 'b'] } }, { skip: 1, limit: 1 })).toEqual([4]);
    expect(await keyed.findOne({ _id: 'a' }, { projection: { n: 0 } })).toEqual({ _id: 'a' });
    expect(await ns({ _id: { $in: [] } })).toEqual([]);
  });

  it.each([
    ['ascending numbers, type order for the string', { age: 1 }, ['bob', 'ann', 'dee', 'cid']],
    ['descending with a tie-breaker', { active: -1, _id: 1 }, ['ann', 'dee', 'bob', 'cid']],
    ['missing values first', { active: 1, _id: 1 }, ['cid', 'bob', 'ann', 'dee']],
    ['null and missing as equals', { score: 1, _id: -1 }, ['dee', 'cid', 'bob', 'ann']],
    ['by a nested field', { 'address.city': 1, _id: 1 }, ['dee', 'bob', 'ann', 'cid']],
  ])('sorts %s', async (_title, sort, expected) => {
    expect(ids(await people.find({}, { sort: sort as Record<string, 1 | -1> }).toArray())).toEqual(expected);
  });

  it('applies skip and limit after the sort', async () => {
    const page = await people.find({}, { sort: { _id: -1 }, skip: 1, limit: 2 }).toArray();
    expect(ids(page)).toEqual(['cid', 'bob']);
    expect(ids(await people.find({}, { sort: { _id: 1 }, skip: 10 }).toArray())).toEqual([]);
  });

  it.each([
    [
      'inclusion without _id',
      { name: 1, 'address.city': 1, _id: 0 },
      { name: 'Ann', address: { city: 'Paris' } },
    ],
    ['inclusion keeps _id by default', { name: 1 }, { _id: 'ann', name: 'Ann' }],
    ['_id alone', { _id: 1 }, { _id: 'ann' }],
    [
      'top-level inclusion in stored order, true as 1',
      { age: true, name: 1, _id: 0 },
      { name: 'Ann', age: 31 },
    ],
    [
      'everything but _id',
      { _id: 0 },
      {
        name: 'Ann',
        age: 31,
        tags: ['a', 'b'],
        joined: expect.any(Date),
        address: expect.any(Object),
        ref: expect.anything(),
        active: true,
      },
    ],
    [
      'exclusion',
      { tags: 0, joined: 0, address: 0, ref: 0, active: 0 },
      { _id: 'ann', name: 'Ann', age: 31 },
    ],
  ])('projects: %s', async (_title, projection, expected) => {
    expect(await people.findOne({ _id: 'ann' }, { projection })).toEqual(expected);
    expect(await people.find({ _id: 'ann' }, { projection }).toArray()).toEqual([expected]);
  });

  it('returns stored values with their types: Date, ObjectId, null, nested documents', async () => {
    const ann = await people.findOne({ _id: 'ann' });
    expect(ann).toEqual(PEOPLE[0]);
    expect(ann?.joined).toBeInstanceOf(Date);
    expect(ann?.ref).toBeInstanceOf(ObjectId);
    expect(String(ann?.ref)).toBe(REF.toHexString());
    expect(await people.findOne({ _id: 'nobody' })).toBeNull();
  });

  it('counts with and without a filter', async () => {
    expect(await people.countDocuments({})).toBe(PEOPLE.length);
    expect(await people.countDocuments({ 'address.city': 'Paris' })).toBe(2);
  });

  it('rejects a malformed filter with an error instead of guessing', async () => {
    await expect(people.find({ age: { $bogus: 1 } }).toArray()).rejects.toThrow();
    await expect(people.countDocuments({ $where: 'true' })).rejects.toThrow();
  });
});
