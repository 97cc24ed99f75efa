/**
 * Refine's real data provider, `@refinedev/simple-rest` 6, unchanged, against `createStore` with
 * the documented options (`dialects: true, wireId: 'id'`) and against `store serve --seed
 * db.json` with its defaults, over HTTP, on the json-server
 * `db.json` beside this file. (Refine's `lt` is left out: the provider sends it as plain
 * equality, its own bug.)
 */
import type { CrudFilter } from '@refinedev/core';
import dataProvider from '@refinedev/simple-rest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ServedStore, serveCli, serveStore } from './serve';

type Provider = ReturnType<typeof dataProvider>;
const ids = (records: readonly { id?: unknown }[]) => records.map((record) => record.id);

const SERVERS: [string, () => Promise<ServedStore>][] = [
  ['createStore', () => serveStore()],
  ['store serve --seed db.json', serveCli],
];

describe.each(SERVERS)('Refine through @refinedev/simple-rest, against %s', (_, start) => {
  let store: ServedStore;
  let data: Provider;
  beforeEach(async () => {
    store = await start();
    data = dataProvider(store.url);
  });
  afterEach(() => store.close());

  const list = (filters: CrudFilter[], pageSize = 20) =>
    data.getList({
      resource: 'posts',
      pagination: { currentPage: 1, pageSize },
      sorters: [{ field: 'id', order: 'asc' }],
      filters,
    });

  it('getList pages and sorts, with the total', async () => {
    const page = await data.getList({
      resource: 'posts',
      pagination: { currentPage: 2, pageSize: 5 },
      sorters: [{ field: 'views', order: 'desc' }],
    });
    expect(ids(page.data)).toEqual([7, 6, 5, 4, 3]);
    expect(page.total).toBe(12);
  });

  it('getList filters with eq', async () => {
    const page = await list([{ field: 'author', operator: 'eq', value: 'bob' }]);
    expect(ids(page.data)).toEqual([2, 4, 6, 8, 10, 12]);
    expect(page.total).toBe(6);
  });

  it('getList filters with ne', async () => {
    const page = await list([{ field: 'author', operator: 'ne', value: 'bob' }]);
    expect(ids(page.data)).toEqual([1, 3, 5, 7, 9, 11]);
  });

  it('getList filters with gte', async () => {
    const page = await list([{ field: 'views', operator: 'gte', value: 250 }]);
    expect(ids(page.data)).toEqual([10, 11, 12]);
    expect(page.total).toBe(3);
  });

  it('getList filters with lte', async () => {
    const page = await list([{ field: 'views', operator: 'lte', value: 50 }]);
    expect(ids(page.data)).toEqual([1, 2]);
  });

  it('getList filters with contains', async () => {
    const page = await list([{ field: 'title', operator: 'contains', value: 'CATS' }]);
    expect(ids(page.data)).toEqual([3, 7]);
  });

  it('getList filters with in', async () => {
    const page = await list([{ field: 'id', operator: 'in', value: [2, 4, 9] }]);
    expect(ids(page.data)).toEqual([2, 4, 9]);
  });

  it('getOne and getMany read records by their numeric ids', async () => {
    expect((await data.getOne({ resource: 'posts', id: 1 })).data).toEqual({
      id: 1,
      title: 'Post 1',
      views: 25,
      author: 'ann',
      published: true,
    });
    const many = await data.getMany({ resource: 'posts', ids: [3, 1] });
    expect(ids(many.data).sort()).toEqual([1, 3]);
  });

  it('create, update (PATCH) and deleteOne answer the record', async () => {
    const created = await data.create({ resource: 'posts', variables: { title: 'New', views: 1 } });
    expect(created.data).toEqual({ id: expect.any(String), title: 'New', views: 1 });
    const updated = await data.update({ resource: 'posts', id: 1, variables: { title: 'Patched' } });
    expect(updated.data).toEqual({ id: 1, title: 'Patched', views: 25, author: 'ann', published: true });
    const deleted = await data.deleteOne({ resource: 'posts', id: 1 });
    expect(deleted.data).toEqual({ id: 1, title: 'Patched', views: 25, author: 'ann', published: true });
    await expect(data.getOne({ resource: 'posts', id: 1 })).rejects.toMatchObject({
      response: { status: 404 },
    });
  });
});
