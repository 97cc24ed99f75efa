import { createEmbeddedDb, EmbeddedDbError } from '@store/embedded';
import { afterEach, describe, expect, it, vi } from 'vitest';

describe('createEmbeddedDb: TTL indexes', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('removes expired documents on the next access, as the TTL monitor would', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const sessions = createEmbeddedDb().collection('sessions');
    await sessions.createIndex({ createdAt: 1 }, { expireAfterSeconds: 60 });
    await sessions.insertOne({ _id: 'old', createdAt: new Date('2029-12-31T23:58:00Z') });
    await sessions.insertOne({ _id: 'new', createdAt: new Date('2030-01-01T00:00:00Z') });
    await sessions.insertOne({ _id: 'no-date', createdAt: 'not a date' });
    expect(await sessions.countDocuments({})).toBe(2);
    vi.setSystemTime(new Date('2030-01-01T00:01:01Z'));
    expect((await sessions.find({}).toArray()).map((doc) => doc._id)).toEqual(['no-date']);
    expect(await sessions.findOne({ _id: 'new' })).toBeNull();
  });

  it('reads no stored expiry date on an operation before the earliest one has passed', async () => {
    const sessions = createEmbeddedDb().collection('sessions');
    await sessions.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    const inAnHour = Date.now() + 3_600_000;
    for (let i = 0; i < 3000; i++) await sessions.insertOne({ _id: i, expiresAt: new Date(inAnHour + i) });
    const getTime = vi.spyOn(Date.prototype, 'getTime');
    try {
      expect(await sessions.findOne({ _id: 2999 })).not.toBeNull();
      await sessions.insertOne({ _id: 'soon', expiresAt: new Date(Date.now() + 60_000) });
      expect(await sessions.countDocuments({ _id: 'soon' })).toBe(1);
      // A scan would read all 3,000; the ordered index on expiresAt compares O(log n) on insert.
      expect(getTime.mock.calls.length).toBeLessThan(100);
    } finally {
      getTime.mockRestore();
    }
  });

  it('removes a document written to expire before the others once its time has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const sessions = createEmbeddedDb().collection('sessions');
    await sessions.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    await sessions.insertOne({ _id: 'late', expiresAt: new Date('2030-01-02T00:00:00Z') });
    expect(await sessions.countDocuments({})).toBe(1);
    await sessions.insertOne({ _id: 'early', expiresAt: new Date('2030-01-01T00:10:00Z') });
    await sessions.updateOne({ _id: 'late' }, { $set: { expiresAt: new Date('2030-01-01T00:05:00Z') } });
    vi.setSystemTime(new Date('2030-01-01T00:06:00Z'));
    expect((await sessions.find({}).toArray()).map((doc) => doc._id)).toEqual(['early']);
    vi.setSystemTime(new Date('2030-01-01T00:11:00Z'));
    expect(await sessions.countDocuments({})).toBe(0);
  });
});

describe('createEmbeddedDb: indexes', () => {
  it('names indexes like MongoDB and accepts the same index twice', async () => {
    const posts = createEmbeddedDb().collection('posts');
    expect(await posts.createIndex({ title: 'text', body: 'text' })).toBe('title_text_body_text');
    expect(await posts.createIndex({ location: '2dsphere' })).toBe('location_2dsphere');
    expect(await posts.createIndex({ a: 1, b: -1 }, { unique: true })).toBe('a_1_b_-1');
    expect(await posts.createIndex({ a: 1, b: -1 }, { unique: true })).toBe('a_1_b_-1');
    expect(await posts.createIndex({ c: 1 }, { name: 'by_c' })).toBe('by_c');
  });

  it.each([
    ['an empty key specification', {}, {}, 67],
    ['an unknown index kind', { a: 'hashed' }, {}, 67],
    ['a $-prefixed field', { $a: 1 }, {}, 67],
    ['a negative TTL', { a: 1 }, { expireAfterSeconds: -1 }, 67],
    ['a compound TTL index', { a: 1, b: 1 }, { expireAfterSeconds: 5 }, 67],
    ['a known name with other keys', { other: 1 }, { name: 'title_1' }, 86],
    ['the same keys with other options', { title: 1 }, { unique: true }, 85],
    ['a second text index', { body: 'text' }, {}, 85],
  ])('rejects %s', async (_title, spec, options, code) => {
    const posts = createEmbeddedDb().collection('posts');
    await posts.createIndex({ title: 1 });
    await posts.createIndex({ summary: 'text' });
    await expect(posts.createIndex(spec as never, options)).rejects.toMatchObject({ code });
  });

  it('applies a compound unique index to the combination of values', async () => {
    const slots = createEmbeddedDb().collection('slots');
    await slots.createIndex({ day: 1, hour: 1 }, { unique: true });
    await slots.insertOne({ day: 1, hour: 9 });
    await slots.insertOne({ day: 1, hour: 10 });
    const duplicate = slots.insertOne({ day: 1, hour: 9 });
    await expect(duplicate).rejects.toBeInstanceOf(EmbeddedDbError);
    await expect(slots.insertOne({ day: 1, hour: 9 })).rejects.toMatchObject({
      code: 11000,
      codeName: 'DuplicateKey',
      keyPattern: { day: 1, hour: 1 },
      keyValue: { day: 1, hour: 9 },
    });
  });
});

describe('createEmbeddedDb: bad input', () => {
  const db = createEmbeddedDb();
  const things = db.collection('things');

  it.each([
    ['$where', { $where: 'this.a == 1' }],
    ['$function inside $expr', { $expr: { $function: { body: 'return true', args: [], lang: 'js' } } }],
    ['an unknown operator', { a: { $frob: 1 } }],
    [
      '$nearSphere inside $or',
      { $or: [{ at: { $nearSphere: { $geometry: { type: 'Point', coordinates: [0, 0] } } } }] },
    ],
    [
      'an open polygon ring',
      {
        at: {
          $geoWithin: {
            $geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [0, 0],
                  [1, 0],
                  [1, 1],
                ],
              ],
            },
          },
        },
      },
    ],
    [
      'a latitude out of range',
      { at: { $geoIntersects: { $geometry: { type: 'Point', coordinates: [0, 91] } } } },
    ],
    ['$text without $search', { $text: { search: 'x' } }],
    ['$mod with a zero divisor', { a: { $mod: [0, 1] } }],
  ])('rejects a filter with %s (code 2, BadValue)', async (_title, filter) => {
    await things.createIndex({ at: '2dsphere' });
    await things.createIndex({ title: 'text' });
    await things.deleteMany({});
    await things.insertOne({ a: 1, title: 'x', at: { type: 'Point', coordinates: [0, 0] } });
    await expect(things.find(filter).toArray()).rejects.toMatchObject({ code: 2, codeName: 'BadValue' });
  });

  it.each([
    ['a negative skip', { skip: -1 }],
    ['a fractional limit', { limit: 1.5 }],
    ['a sort direction other than 1 or -1', { sort: { a: 'asc' } }],
    ['a projection mixing inclusion and exclusion', { projection: { a: 1, b: 0 } }],
  ])('rejects find options with %s', async (_title, options) => {
    await expect(things.find({}, options as never).toArray()).rejects.toMatchObject({ code: 2 });
  });

  it('adds no _id to the document it is given (unlike the driver, which does)', async () => {
    const input = { name: 'no id' };
    const { insertedId } = await things.insertOne(input);
    expect(input).toEqual({ name: 'no id' });
    expect(await things.findOne({ _id: insertedId })).toEqual({ _id: insertedId, name: 'no id' });
  });

  it('rejects an update without operators as the driver does, before anything is written (no code)', async () => {
    await things.insertOne({ _id: 'plain', a: 1 });
    const refused = things.updateOne({ _id: 'plain' }, { name: 'x' });
    await expect(refused).rejects.toThrow('Update document requires atomic operators');
    await expect(refused).rejects.not.toHaveProperty('code');
    expect(await things.findOne({ _id: 'plain' })).toEqual({ _id: 'plain', a: 1 });
    await things.deleteOne({ _id: 'plain' });
  });

  it.each([
    ['an unknown operator', { $frobnicate: { a: 1 } }, 9],
    ['an operator after a plain field', { $set: { a: 1 }, name: 'x' }, 9],
    ['two operators on one path', { $set: { 'a.b': 1 }, $inc: { a: 1 } }, 40],
    ['a change of _id', { $set: { _id: 'other' } }, 66],
  ])('rejects %s with its MongoDB code', async (_title, update, code) => {
    await things.insertOne({ _id: 'upd', a: { b: 0 } });
    await expect(things.updateOne({ _id: 'upd' }, update)).rejects.toMatchObject({ code });
    await things.deleteOne({ _id: 'upd' });
  });

  it('rejects an array _id (code 53) and a non-object document', async () => {
    await expect(things.insertOne({ _id: [1, 2] })).rejects.toMatchObject({ code: 53 });
    await expect(things.insertOne('text' as never)).rejects.toMatchObject({ code: 2 });
  });

  it('rejects an invalid collection name on use (code 73)', async () => {
    await expect(db.collection('a$b').find({}).toArray()).rejects.toMatchObject({ code: 73 });
    await expect(db.collection('').countDocuments({})).rejects.toMatchObject({ code: 73 });
  });

  it('never lets a __proto__ key reach a prototype', async () => {
    const doc = JSON.parse('{"_id":"p","__proto__":{"polluted":true},"a":{"__proto__":{"x":1}}}');
    await things.insertOne(doc);
    const stored = await things.findOne({ _id: 'p' });
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect((stored as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('createEmbeddedDb: close', () => {
  it('fails every later operation with code 11600 and keeps no data', async () => {
    const db = createEmbeddedDb();
    await db.collection('things').insertOne({ _id: 1 });
    await db.close();
    await expect(db.collection('things').findOne({ _id: 1 })).rejects.toMatchObject({ code: 11600 });
    await expect(db.collection('fresh').insertOne({})).rejects.toMatchObject({ code: 11600 });
  });
});
