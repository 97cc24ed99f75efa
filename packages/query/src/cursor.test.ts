import { EJSON, ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { compileQuery, encodeCursor, type SortSpec } from './index';
import { errorOf } from './query-error.test-support';

const after = (query: string) => compileQuery(query).after;

describe('$after cursors', () => {
  it('resumes after the last document of the default _id sort, reaching ids of later BSON types', () => {
    const cursor = encodeCursor({ _id: 1 }, { _id: 7, name: 'x' }) as string;
    expect(after(`$after=${cursor}`)).toEqual({
      $or: [
        { _id: { $gt: 7 } },
        {
          _id: {
            $type: [
              'string',
              'symbol',
              'object',
              'binData',
              'objectId',
              'bool',
              'date',
              'timestamp',
              'regex',
            ],
          },
        },
      ],
    });
  });

  it('keeps BSON types through the cursor (ObjectId, Date)', () => {
    const id = new ObjectId();
    const born = new Date('2000-01-02T03:04:05.678Z');
    const cursor = encodeCursor({ born: -1, _id: 1 }, { _id: id, born }) as string;
    const filter = after(`$sort=-born&$after=${cursor}`) as { $or: Record<string, unknown>[] };
    const first = filter.$or[0] as { $or: { born: { $lt?: unknown } }[] };
    expect(first.$or[0]?.born.$lt).toEqual(born);
    expect(first.$or[0]?.born.$lt).toBeInstanceOf(Date);
    expect(JSON.stringify(filter.$or[1])).toContain(id.toHexString());
  });

  it('puts null and missing values first in an ascending sort and last in a descending one', () => {
    const up = encodeCursor({ a: 1, _id: 1 }, { _id: 1 }) as string;
    expect(after(`$sort=a&$after=${up}`)).toEqual({
      $or: [
        { a: { $ne: null } },
        { $and: [{ a: null }, { $or: [{ _id: { $gt: 1 } }, expect.objectContaining({})] }] },
      ],
    });
    const down = encodeCursor({ a: -1, _id: 1 }, { _id: 1, a: null }) as string;
    const filter = after(`$sort=-a&$after=${down}`) as { $and?: unknown };
    // Nothing sorts after null descending but the ties on a, further by _id.
    expect(filter).toEqual({ $and: [{ a: null }, expect.objectContaining({ $or: expect.any(Array) })] });
  });

  it('reads a nested sort key and treats a path through a missing object as null', () => {
    const cursor = encodeCursor({ 'author.name': 1, _id: 1 }, { _id: 2, author: { name: 'Zed' } }) as string;
    expect(JSON.stringify(after(`$sort=author.name&$after=${cursor}`))).toContain('"$gt":"Zed"');
    expect(encodeCursor({ 'author.name': 1, _id: 1 }, { _id: 2 })).toEqual(expect.any(String));
  });

  it('makes no cursor when a sort key holds an array', () => {
    expect(encodeCursor({ tags: 1, _id: 1 }, { _id: 1, tags: ['a'] })).toBeUndefined();
  });

  it.each([
    ['not base64url', '%%%'],
    ['base64 of no JSON', Buffer.from('nope').toString('base64url')],
    ['another shape', Buffer.from('{"v":[1]}').toString('base64url')],
    ['an operator as a value', Buffer.from('{"k":[["_id",1]],"v":[{"$where":"1"}]}').toString('base64url')],
    [
      'an operator inside an object value',
      Buffer.from('{"k":[["_id",1]],"v":[{"a":{"$gt":1}}]}').toString('base64url'),
    ],
    ['an array value', Buffer.from('{"k":[["_id",1]],"v":[[1]]}').toString('base64url')],
    ['too few values', Buffer.from('{"k":[["_id",1]],"v":[]}').toString('base64url')],
    ['an empty cursor', ''],
  ])('rejects %s with 400 invalid_cursor', (_, cursor) => {
    expect(errorOf(() => compileQuery(`$after=${cursor}`))).toMatchObject({
      status: 400,
      code: 'invalid_cursor',
      parameter: '$after',
    });
  });

  it('rejects a cursor made for another sort', () => {
    const cursor = encodeCursor({ name: 1, _id: 1 }, { _id: 1, name: 'a' }) as string;
    expect(errorOf(() => compileQuery(`$after=${cursor}`)).code).toBe('invalid_cursor');
    expect(errorOf(() => compileQuery(`$sort=-name&$after=${cursor}`)).code).toBe('invalid_cursor');
    expect(compileQuery(`$sort=name&$after=${cursor}`).after).toBeDefined();
  });

  it('rejects $after with $page', () => {
    const cursor = encodeCursor({ _id: 1 }, { _id: 1 }) as string;
    const error = errorOf(() => compileQuery(`$page=1&$after=${cursor}`));
    expect(error).toMatchObject({ status: 400, code: 'invalid_query', parameter: '$after' });
    expect(error.message).toContain('$page');
  });

  it('reads $total as a boolean', () => {
    expect(compileQuery('$total=1').total).toBe(true);
    expect(compileQuery('$total=false').total).toBe(false);
    expect(errorOf(() => compileQuery('$total=yes'))).toMatchObject({
      code: 'invalid_query',
      parameter: '$total',
    });
  });
});

describe('the cursor text', () => {
  it.each([
    ['strings', { name: 1, _id: 1 }, { name: 'Ann "A"', _id: 'x\u00e9' }],
    ['int32 numbers', { n: -1, _id: 1 }, { n: -2_147_483_648, _id: 7 }],
    ['ObjectIds, booleans and null', { ok: 1, _id: -1 }, { ok: false, _id: new ObjectId() }],
    ['a missing key (null)', { gone: 1, _id: 1 }, { _id: 'a' }],
    [
      'doubles, -0 and large integers (Extended JSON written by bson)',
      { a: 1, b: -1, c: 1 },
      { a: 2.5, b: -0, c: 3e9 },
    ],
    ['dates and sub-documents', { at: 1, meta: 1 }, { at: new Date(0), meta: { x: 1 } }],
  ])('is canonical Extended JSON of the sort and its values: %s', (_what, sort, document) => {
    const cursor = encodeCursor(sort as SortSpec, document) as string;
    const values = Object.keys(sort).map((key) => (document as Record<string, unknown>)[key] ?? null);
    const expected = EJSON.stringify({ k: Object.entries(sort), v: values }, { relaxed: false });
    expect(Buffer.from(cursor, 'base64url').toString('utf8')).toBe(expected);
  });
});
