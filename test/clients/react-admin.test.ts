/**
 * react-admin's real data providers, `ra-data-json-server` 5 and `ra-data-simple-rest` 5, unchanged,
 * against `createStore` with the documented options (`dialects: true, wireId: 'id'`) and against
 * `store serve --seed db.json` with its defaults, over HTTP: every call of a react-admin app, on the json-server `db.json` beside this file (posts
 * with numeric ids, comments with `postId`, users).
 */

import type { DataProvider } from 'ra-core';
import jsonServerProvider from 'ra-data-json-server';
import simpleRestProvider from 'ra-data-simple-rest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ServedStore, serveCli, serveStore } from './serve';

const PROVIDERS: [string, (url: string) => DataProvider][] = [
  ['ra-data-json-server', (url) => jsonServerProvider(url)],
  ['ra-data-simple-rest', (url) => simpleRestProvider(url)],
];

const SERVERS: [string, () => Promise<ServedStore>][] = [
  ['createStore', () => serveStore()],
  ['store serve --seed db.json', serveCli],
];

const ids = (records: { id: unknown }[]) => records.map((record) => record.id);
const page = (page: number, perPage: number) => ({ page, perPage });

describe.each(SERVERS)('against %s', (_, start) => {
  describe.each(PROVIDERS)('react-admin through %s', (_, provider) => {
    let store: ServedStore;
    let data: DataProvider;
    beforeEach(async () => {
      store = await start();
      data = provider(store.url);
    });
    afterEach(() => store.close());

    it('getList pages and sorts, with the total', async () => {
      const list = await data.getList('posts', {
        pagination: page(2, 5),
        sort: { field: 'views', order: 'DESC' },
        filter: {},
      });
      expect(ids(list.data)).toEqual([7, 6, 5, 4, 3]);
      expect(list.total).toBe(12);
    });

    it('getList filters on a field', async () => {
      const list = await data.getList('posts', {
        pagination: page(1, 3),
        sort: { field: 'title', order: 'ASC' },
        filter: { author: 'ann' },
      });
      expect(ids(list.data)).toEqual([1, 11, 3]);
      expect(list.total).toBe(6);
    });

    it('getList searches with q', async () => {
      const list = await data.getList('posts', {
        pagination: page(1, 10),
        sort: { field: 'id', order: 'ASC' },
        filter: { q: 'cats' },
      });
      expect(ids(list.data)).toEqual([3, 7]);
      expect(list.total).toBe(2);
    });

    it('getOne reads a record by its numeric id', async () => {
      const { data: post } = await data.getOne('posts', { id: 1 });
      expect(post).toEqual({ id: 1, title: 'Post 1', views: 25, author: 'ann', published: true });
    });

    it('getMany reads records by id', async () => {
      const { data: posts } = await data.getMany('posts', { ids: [5, 2] });
      expect(ids(posts).sort()).toEqual([2, 5]);
    });

    it('getManyReference lists the comments of a post by postId', async () => {
      const list = await data.getManyReference('comments', {
        target: 'postId',
        id: 3,
        pagination: page(1, 2),
        sort: { field: 'id', order: 'ASC' },
        filter: {},
      });
      expect(list.data).toEqual([
        { id: 4, body: 'Comment 4', postId: 3 },
        { id: 5, body: 'Comment 5', postId: 3 },
      ]);
      expect(list.total).toBe(3);
    });

    it('create answers the record with the id the store made, which getOne then reads', async () => {
      const { data: created } = await data.create('posts', { data: { title: 'New', views: 0 } });
      expect(created).toEqual({ id: expect.any(String), title: 'New', views: 0 });
      const { data: read } = await data.getOne('posts', { id: created.id });
      expect(read).toEqual(created);
    });

    it('update replaces the record and answers it', async () => {
      const previousData = { id: 1, title: 'Post 1', views: 25, author: 'ann', published: true };
      const { data: updated } = await data.update('posts', {
        id: 1,
        data: { ...previousData, title: 'Changed' },
        previousData,
      });
      expect(updated).toEqual({ ...previousData, title: 'Changed' });
    });

    it('updateMany answers the ids it changed', async () => {
      const { data: changed } = await data.updateMany('posts', {
        ids: [2, 4],
        data: { title: 'Bulk', views: 0 },
      });
      expect(changed).toEqual([2, 4]);
      expect((await data.getOne('posts', { id: 4 })).data).toEqual({ id: 4, title: 'Bulk', views: 0 });
    });

    it('delete answers the deleted record, which is then gone', async () => {
      const { data: deleted } = await data.delete('posts', { id: 1 });
      expect(deleted).toEqual({ id: 1, title: 'Post 1', views: 25, author: 'ann', published: true });
      await expect(data.getOne('posts', { id: 1 })).rejects.toMatchObject({ status: 404 });
    });

    it('deleteMany answers the ids it deleted', async () => {
      const { data: deleted } = await data.deleteMany('posts', { ids: [2, 3] });
      expect(deleted).toEqual([2, 3]);
      const list = await data.getList('posts', {
        pagination: page(1, 20),
        sort: { field: 'id', order: 'ASC' },
        filter: {},
      });
      expect(list.total).toBe(10);
    });
  });
});
