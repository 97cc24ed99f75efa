import { describe, expect, it } from 'vitest';
import { compileQuery } from './compile-query';

const asId = { wireId: 'id' } as const;

describe("compileQuery with wireId: 'id'", () => {
  it('reads id as _id in field filters, $or groups, $query, $regex, $sort and $select', () => {
    const query = compileQuery(
      'id=2&id:gte=1&$or[0][id]=4&$query={"id":{"$lt":9},"$or":[{"id":3}]}&$regex=["id","^a"]&$sort=-id&$select=id,title',
      asId,
    );
    expect(JSON.stringify(query.filter)).not.toMatch(/"id"/);
    expect(query.sort).toEqual({ _id: -1 });
    expect(query.projection).toEqual({ _id: 1, title: 1 });
  });

  it('keeps a field inside a document and other fields as they are', () => {
    const query = compileQuery('author.id=7&ids=1&$sort=title', asId);
    expect(query.filter).toEqual({ 'author.id': { $in: ['7', 7] }, ids: { $in: ['1', 1] } });
    expect(query.sort).toEqual({ title: 1, _id: 1 });
  });

  it('ANDs id and _id given together in $query, and refuses both in $sort', () => {
    const query = compileQuery('$query={"id":1,"_id":{"$gt":0}}', asId);
    expect(query.filter).toEqual({ _id: { $gt: 0 }, $and: [{ _id: 1 }] });
    expect(() => compileQuery('$sort=id,_id', asId)).toThrow(/"id" and "_id" name the same field/);
  });

  it("reads id as a field of its own under the default wireId ('_id')", () => {
    expect(compileQuery('id=2').filter).toEqual({ id: { $in: ['2', 2] } });
    expect(() => compileQuery('', { wireId: 'ID' as never })).toThrow(/wireId/);
  });
});
