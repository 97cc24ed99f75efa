import type { StoreCollection, StoreDb } from '@store/common';
import { type Collection, type Db, MongoClient } from 'mongodb';
import { describe, expect, expectTypeOf, it } from 'vitest';

// Type-level checks (run by `pnpm typecheck`): the real driver satisfies the storage interface as is.
const driverDb: StoreDb = {} as Db;
const driverCollection: StoreCollection = {} as Collection;

describe('the storage interface', () => {
  it('is satisfied by the driver Db and Collection types', () => {
    expectTypeOf<Db>().toMatchTypeOf<StoreDb>();
    expectTypeOf<Collection>().toMatchTypeOf<StoreCollection>();
    expect([driverDb, driverCollection]).toHaveLength(2);
  });

  it('is satisfied by a driver Db at run time, without a server', () => {
    const client = new MongoClient('mongodb://127.0.0.1:1/never_connected');
    const db: StoreDb = client.db();
    const collection = db.collection('things');
    expect(collection.collectionName).toBe('things');
    for (const method of ['find', 'findOne', 'countDocuments', 'insertOne', 'findOneAndReplace'] as const) {
      expect(typeof collection[method]).toBe('function');
    }
    for (const method of [
      'findOneAndUpdate',
      'updateOne',
      'deleteOne',
      'deleteMany',
      'createIndex',
    ] as const) {
      expect(typeof collection[method]).toBe('function');
    }
  });
});
