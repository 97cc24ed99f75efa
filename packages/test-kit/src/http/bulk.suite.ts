import { describe, expect, it } from 'vitest';
import { listed, startAccess } from './access-fixtures';
import type { Start } from './fixtures';
import { type Api, asArray, expectProblem, field, type ReplyJson, readStored } from './harness';

const NOTE_SCHEMA = {
  type: 'object',
  properties: { text: { type: 'string' }, stars: { type: 'integer', maximum: 5 } },
  required: ['text'],
};

/** Every stored note, by `_id`, as a client sees them. */
async function notes(api: Api): Promise<ReplyJson[]> {
  return asArray((await api.get('/notes?$limit=100')).json);
}

/** Bulk create, bulk PATCH and bulk DELETE. */
export function bulkTests(start: Start): void {
  describe('bulk create (POST an array)', () => bulkCreateTests(start));
  describe('bulk PATCH and DELETE by filter', () => bulkChangeTests(start));
}

function bulkCreateTests(start: Start): void {
  it('creates every item and answers 201 with them, in order, ids made where none is given', async () => {
    const api = await start();
    const reply = await api.post('/notes', [{ _id: 'n1', text: 'a' }, { text: 'b' }, { _id: 3, text: 'c' }]);
    expect(reply.status, reply.text).toBe(201);
    const created = asArray(reply.json);
    expect(created.map((doc) => field(doc, 'text'))).toEqual(['a', 'b', 'c']);
    expect(field(created[1], '_id')).toMatch(/^[0-9a-f]{24}$/);
    expect(reply.text).not.toContain('_store_rev');
    expect(await readStored(api, 'notes', { _id: 3 })).toEqual({ _id: 3, text: 'c' });
    expect(await notes(api)).toHaveLength(3);
  });

  it('stores none when one item is bad, naming its index', async () => {
    const api = await start({ resources: { notes: { schema: NOTE_SCHEMA } } });
    const reply = await api.post('/notes', [{ text: 'a' }, { text: 'b' }, { stars: 9 }]);
    expectProblem(reply, 400, 'invalid_body');
    expect(field(reply.json, 'index')).toBe(2);
    expect(field(reply.json, 'detail')).toMatch(/^Item 2: /);
    for (const body of [
      [{ text: 'a' }, 'not a document'],
      [{ text: 'a' }, { $where: 'x' }],
    ]) {
      const bad = await api.post('/notes', body);
      expectProblem(bad, 400, 'invalid_body');
      expect(field(bad.json, 'index')).toBe(1);
    }
    expect(await notes(api)).toEqual([]);
  });

  it('answers 409 naming the index for an _id taken by a stored document or by another item, aliases too', async () => {
    const api = await start();
    await api.seed('notes', [{ _id: 7, text: 'stored' }]);
    for (const [body, index] of [
      [[{ _id: 'x' }, { _id: 7 }], 1],
      [[{ _id: 'x' }, { _id: 'y' }, { _id: '7' }], 2],
      [[{ _id: 'x' }, { _id: 'x' }], 1],
      [[{ _id: 8 }, { _id: '8' }], 1],
    ] as const) {
      const reply = await api.post('/notes', body);
      expectProblem(reply, 409, 'conflict');
      expect(field(reply.json, 'index')).toBe(index);
    }
    expect((await notes(api)).map((doc) => field(doc, '_id'))).toEqual([7]);
  });

  it('withdraws the items already inserted when the database refuses a later one (a unique index)', async () => {
    const api = await start();
    await api.seed('notes', [{ _id: 'n0', code: 'taken' }]);
    await api.db.collection('notes').createIndex({ code: 1 }, { unique: true, name: 'code_unique' });
    const reply = await api.post('/notes', [{ code: 'a' }, { code: 'b' }, { code: 'taken' }, { code: 'c' }]);
    expectProblem(reply, 409, 'conflict');
    expect(field(reply.json, 'index')).toBe(2);
    expect((await notes(api)).map((doc) => field(doc, 'code'))).toEqual(['taken']);
  });

  it('refuses an empty array, and more than maxBulk items, before storing anything', async () => {
    const api = await start({ maxBulk: 3 });
    expectProblem(await api.post('/notes', []), 400, 'invalid_body');
    const many = await api.post('/notes', [{}, {}, {}, {}]);
    expectProblem(many, 400, 'too_many_items');
    expect(field(many.json, 'detail')).toContain('maxBulk');
    expect((await api.post('/notes', [{}, {}, {}])).status).toBe(201);
  });

  it('runs beforeWrite and afterWrite on each item', async () => {
    const seen: unknown[] = [];
    const api = await start({
      resources: {
        notes: {
          hooks: {
            beforeWrite: (ctx: { body: Record<string, unknown> }) => {
              ctx.body.text = String(ctx.body.text).toUpperCase();
            },
            afterWrite: (_ctx: unknown, change: { after: Record<string, unknown> }) => {
              seen.push(change.after.text);
            },
          },
        },
      },
    });
    const reply = await api.post('/notes', [{ text: 'a' }, { text: 'b' }]);
    expect(asArray(reply.json).map((doc) => field(doc, 'text'))).toEqual(['A', 'B']);
    expect(seen).toEqual(['A', 'B']);
  });

  it('sets the owner of every item from the session, and stores none when one names another owner', async () => {
    const { send, id } = await startAccess(start);
    const made = await send('ada', 'POST', '/notes', [{ title: 'x' }, { title: 'y' }]);
    expect(made.status, made.text).toBe(201);
    expect(asArray(made.json).map((doc) => field(doc, 'user_id'))).toEqual([id.ada, id.ada]);
    const forged = await send('ada', 'POST', '/notes', [{ title: 'z' }, { title: 'w', user_id: id.bob }]);
    expectProblem(forged, 403, 'forbidden');
    expect(field(forged.json, 'index')).toBe(1);
    expect(listed(await send('ada', 'GET', '/notes?title=z'))).toEqual([]);
    expectProblem(await send('anonymous', 'POST', '/members', [{ title: 'v' }]), 401, 'unauthorized');
    expectProblem(await send('ada', 'POST', '/vault', [{ title: 'v' }]), 403, 'forbidden');
  });
}

function bulkChangeTests(start: Start): void {
  const seedNotes = (api: Api) =>
    api.seed('notes', [
      { _id: 'n1', text: 'a', tag: 'red' },
      { _id: 'n2', text: 'b', tag: 'red' },
      { _id: 'n3', text: 'c', tag: 'blue' },
    ]);

  it('PATCH sets the body on every match and answers { matched, modified }', async () => {
    const api = await start();
    await seedNotes(api);
    const reply = await api.request('PATCH', '/notes?tag=red', { body: { done: true } });
    expect({ status: reply.status, json: reply.json }).toEqual({
      status: 200,
      json: { matched: 2, modified: 2 },
    });
    expect(await readStored(api, 'notes', { _id: 'n2' })).toEqual({
      _id: 'n2',
      text: 'b',
      tag: 'red',
      done: true,
    });
    expect(await readStored(api, 'notes', { _id: 'n3' })).toEqual({ _id: 'n3', text: 'c', tag: 'blue' });
  });

  it('counts as modified only documents whose values change, and changes only their ETag and updatedAt', async () => {
    const api = await start({ resources: { notes: { timestamps: true } } });
    await seedNotes(api);
    const read = async (id: string) => {
      const reply = await api.get(`/notes/${id}`);
      return { etag: reply.headers.get('etag'), updatedAt: field(reply.json, 'updatedAt') };
    };
    const [n1, n2] = [await read('n1'), await read('n2')];
    await new Promise((resolve) => setTimeout(resolve, 5));
    const reply = await api.request('PATCH', '/notes?tag=red', { body: { text: 'b' } });
    expect(reply.json).toEqual({ matched: 2, modified: 1 });
    const [n1After, n2After] = [await read('n1'), await read('n2')];
    expect(n1After.etag).not.toBe(n1.etag);
    expect(n1After.updatedAt).not.toBe(n1.updatedAt);
    expect(n2After).toEqual(n2);
    expect((await api.request('PATCH', '/notes?tag=red', { body: { text: 'b' } })).json).toEqual({
      matched: 2,
      modified: 0,
    });
    expect((await api.request('PATCH', '/notes?tag=red', { body: { 'meta.n': 1 } })).json).toEqual({
      matched: 2,
      modified: 2,
    });
    // A missing field set to null is a change: the field is then stored.
    expect((await api.request('PATCH', '/notes?tag=blue', { body: { gone: null } })).json).toEqual({
      matched: 1,
      modified: 1,
    });
    expect((await readStored(api, 'notes', { _id: 'n3' }))?.gone).toBeNull();
  });

  it('DELETE removes every match and answers { deleted }', async () => {
    const api = await start();
    await seedNotes(api);
    const reply = await api.request('DELETE', '/notes?tag=red');
    expect({ status: reply.status, json: reply.json }).toEqual({ status: 200, json: { deleted: 2 } });
    expect((await notes(api)).map((doc) => field(doc, '_id'))).toEqual(['n3']);
    expect((await api.request('DELETE', '/notes?tag=green')).json).toEqual({ deleted: 0 });
  });

  it('takes every filter form: modifiers, $or groups, $query, $regex and $search', async () => {
    const api = await start({ resources: { notes: { search: ['text'] } } });
    await api.seed('notes', [
      { _id: 'n1', text: 'apple pie', n: 1 },
      { _id: 'n2', text: 'banana', n: 5 },
      { _id: 'n3', text: 'cherry', n: 9 },
    ]);
    const patch = (query: string) => api.request('PATCH', `/notes?${query}`, { body: { seen: true } });
    expect((await patch('n:gte=5')).json).toMatchObject({ matched: 2 });
    expect((await patch('$or[0][n]=1&$or[1][n]=9')).json).toMatchObject({ matched: 2 });
    expect((await patch('$query={"n":{"$lt":2}}')).json).toMatchObject({ matched: 1 });
    expect((await patch('$regex=["text","^BAN"]')).json).toMatchObject({ matched: 1 });
    expect((await patch('$search=pie')).json).toMatchObject({ matched: 1 });
    expect((await api.request('DELETE', '/notes?_id:exists=true')).json).toEqual({ deleted: 3 });
  });

  it('answers 400 filter_required without a filter, and invalid_query for page parameters', async () => {
    const api = await start();
    await seedNotes(api);
    expectProblem(await api.request('DELETE', '/notes'), 400, 'filter_required');
    expectProblem(await api.request('PATCH', '/notes', { body: { done: true } }), 400, 'filter_required');
    expectProblem(await api.request('DELETE', '/notes?$limit=1&tag=red'), 400, 'invalid_query');
    expectProblem(await api.request('DELETE', '/notes?$$flag=1'), 400, 'filter_required');
    expectProblem(await api.request('PATCH', '/notes?tag=red', { body: {} }), 400, 'invalid_body');
    expectProblem(await api.request('PATCH', '/notes?tag=red', { body: { _id: 'x' } }), 400, 'invalid_body');
    const merge = await api.request('PATCH', '/notes?tag=red', {
      raw: '{"done":true}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expectProblem(merge, 415, 'unsupported_media_type');
    expect(await notes(api)).toHaveLength(3);
  });

  it("never changes another user's documents: the access rule narrows the filter", async () => {
    const { send } = await startAccess(start);
    const patched = await send('ada', 'PATCH', '/notes?title:exists=true', { title: 'mine' });
    expect(patched.json).toEqual({ matched: 1, modified: 1 });
    expect(field((await send('bob', 'GET', '/notes/b1')).json, 'title')).toBe('bob');
    expect((await send('ada', 'DELETE', '/notes?title:exists=true')).json).toEqual({ deleted: 1 });
    expect(listed(await send('bob', 'GET', '/notes'))).toEqual(['b1']);
    // drafts: everyone reads, only the owner updates.
    expect((await send('ada', 'PATCH', '/drafts?_id=b1', { title: 'x' })).json).toEqual({
      matched: 0,
      modified: 0,
    });
    expectProblem(await send('anonymous', 'DELETE', '/members?title=bob'), 401, 'unauthorized');
    expectProblem(await send('ada', 'DELETE', '/vault?title=bob'), 403, 'forbidden');
    expectProblem(await send('ada', 'PATCH', '/notes?title=bob', { user_id: 'x' }), 403, 'forbidden');
  });

  it('checks each result against schema before writing any, naming the bad document', async () => {
    const api = await start({ resources: { notes: { schema: NOTE_SCHEMA } } });
    await api.seed('notes', [
      { _id: 'n1', text: 'a', stars: 1 },
      { _id: 'n2', text: 'b', stars: 2 },
    ]);
    const reply = await api.request('PATCH', '/notes?stars:gte=1', { body: { stars: 'many' } });
    expectProblem(reply, 400, 'invalid_body');
    expect(field(reply.json, 'detail')).toMatch(/^Document "n[12]": /);
    expect(await readStored(api, 'notes', { _id: 'n2' })).toEqual({ _id: 'n2', text: 'b', stars: 2 });
  });

  it('hands each document to beforeDelete first (one refusal deletes none) and each deleted one to afterDelete', async () => {
    const deleted: unknown[] = [];
    const api = await start({
      resources: {
        notes: {
          hooks: {
            beforeDelete: (_ctx: unknown, doc: Record<string, unknown>) => {
              if (doc.text === 'keep') throw Object.assign(new Error('kept'), { status: 409, code: 'kept' });
            },
            afterDelete: (_ctx: unknown, doc: Record<string, unknown>) => {
              deleted.push(doc._id);
            },
          },
        },
      },
    });
    await seedNotes(api);
    await api.post('/notes', { _id: 'n4', text: 'keep', tag: 'red' });
    const refused = await api.request('DELETE', '/notes?tag=red');
    expect(refused.status).toBe(409);
    expect(field(refused.json, 'detail')).toMatch(/^Document "n4": /);
    expect(await notes(api)).toHaveLength(4);
    expect((await api.request('DELETE', '/notes?text:ne=keep&tag=red')).json).toEqual({ deleted: 2 });
    expect(deleted).toEqual(['n1', 'n2']);
  });

  it('hands afterWrite each document a bulk PATCH changed, before and after', async () => {
    const changes: unknown[] = [];
    const api = await start({
      resources: {
        notes: {
          hooks: {
            afterWrite: (
              _ctx: unknown,
              change: { before: Record<string, unknown> | null; after: Record<string, unknown> },
            ) => {
              changes.push([change.before?._id, change.before?.text, change.after.text]);
            },
          },
        },
      },
    });
    await seedNotes(api);
    changes.length = 0;
    expect((await api.request('PATCH', '/notes?tag=red', { body: { text: 'b' } })).json).toEqual({
      matched: 2,
      modified: 1,
    });
    expect(changes).toEqual([['n1', 'a', 'b']]);
  });

  it('soft-deletes under softDelete, and then leaves those documents out of every bulk change', async () => {
    const api = await start({ resources: { notes: { softDelete: true } } });
    await seedNotes(api);
    expect((await api.request('DELETE', '/notes?tag=red')).json).toEqual({ deleted: 2 });
    expect((await readStored(api, 'notes', { _id: 'n1' }))?.deletedAt).toBeInstanceOf(Date);
    expect((await api.request('PATCH', '/notes?_id:exists=true', { body: { done: true } })).json).toEqual({
      matched: 1,
      modified: 1,
    });
    expect((await api.request('DELETE', '/notes?tag=red')).json).toEqual({ deleted: 0 });
  });

  it('refuses to read more than maxBulk documents for hooks, changing nothing', async () => {
    const api = await start({
      maxBulk: 2,
      resources: { notes: { hooks: { afterDelete: () => undefined } } },
    });
    await seedNotes(api);
    expectProblem(await api.request('DELETE', '/notes?_id:exists=true'), 400, 'too_many_items');
    expect(await notes(api)).toHaveLength(3);
    expect((await api.request('DELETE', '/notes?tag=red')).json).toEqual({ deleted: 2 });
  });
}
