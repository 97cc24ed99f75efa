import { OptionError } from '@store/common';
import { createEmbeddedDb, isEmbeddedDb } from '@store/embedded';
import { Db, MongoClient } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseNameOf, openStorage, SERVER_SELECTION_TIMEOUT_MS } from '../../src/storage/open-storage';

const UNREACHABLE = 'mongodb://127.0.0.1:1';

describe('openStorage', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([undefined, null])('opens a new embedded database for %s, and closes it', async (option) => {
    const storage = await openStorage(option);
    expect(isEmbeddedDb(storage.db)).toBe(true);
    await storage.db.collection('things').insertOne({ _id: 1 });
    expect(await storage.db.collection('things').countDocuments({})).toBe(1);
    await storage.close();
    await expect(storage.db.collection('things').countDocuments({})).rejects.toMatchObject({ code: 11600 });
  });

  it('uses an embedded database as is and leaves it open', async () => {
    const db = createEmbeddedDb();
    const storage = await openStorage(db);
    expect(storage.db).toBe(db);
    await storage.close();
    await expect(db.collection('things').insertOne({})).resolves.toHaveProperty('insertedId');
  });

  it('uses a driver Db as is and does not close its client', async () => {
    const client = new MongoClient(UNREACHABLE);
    const close = vi.spyOn(client, 'close');
    const db = client.db('shop');
    const storage = await openStorage(db);
    expect(storage.db).toBe(db);
    await storage.close();
    expect(close).not.toHaveBeenCalled();
  });

  it('takes the default database of a MongoClient and does not close it', async () => {
    const client = new MongoClient(`${UNREACHABLE}/shop`);
    const close = vi.spyOn(client, 'close');
    const storage = await openStorage(client);
    expect(storage.db).toBeInstanceOf(Db);
    expect((storage.db as ReturnType<MongoClient['db']>).databaseName).toBe('shop');
    await storage.close();
    expect(close).not.toHaveBeenCalled();
  });

  it.each([
    ['the URI path', `${UNREACHABLE}/from_uri?retryWrites=true`, { MONGODB_DB: 'from_env' }, 'from_uri'],
    [
      'MONGODB_DB when the URI has none',
      `${UNREACHABLE}/?retryWrites=true`,
      { MONGODB_DB: 'from_env' },
      'from_env',
    ],
    ['the driver default otherwise', UNREACHABLE, {}, 'test'],
  ])(
    'opens a client for a connection string without connecting yet, naming the database from %s, and closes it',
    async (_t, uri, env, name) => {
      const connect = vi.spyOn(MongoClient.prototype, 'connect');
      const close = vi.spyOn(MongoClient.prototype, 'close').mockResolvedValue(undefined);
      const storage = await openStorage(uri, env);
      // It connects on first use, so a database that is down at start-up is retried (start-storage).
      expect(connect).not.toHaveBeenCalled();
      expect(storage.db).toBeInstanceOf(Db);
      expect((storage.db as ReturnType<MongoClient['db']>).databaseName).toBe(name);
      await storage.close();
      expect(close).toHaveBeenCalledOnce();
    },
  );

  it('waits 5 s for a server unless the connection string says otherwise', async () => {
    const own = await openStorage(`${UNREACHABLE}/shop`, {});
    const given = await openStorage(`${UNREACHABLE}/shop?serverSelectionTimeoutMS=1500`, {});
    const timeoutOf = (db: unknown) =>
      (db as ReturnType<MongoClient['db']>).client.options.serverSelectionTimeoutMS;
    expect([timeoutOf(own.db), timeoutOf(given.db)]).toEqual([SERVER_SELECTION_TIMEOUT_MS, 1500]);
    await Promise.all([own.close(), given.close()]);
  });

  it.each([
    ['a number', 42],
    ['a plain object', {}],
    ['an array', []],
    ['a URL of another scheme', 'http://localhost:27017/db'],
    ['an empty string', ''],
    ['a function', () => undefined],
  ])('rejects %s with an invalid_config error naming the db option', async (_title, value) => {
    const failure = openStorage(value as never);
    await expect(failure).rejects.toBeInstanceOf(OptionError);
    await expect(failure).rejects.toMatchObject({ code: 'invalid_config', data: { option: 'db' } });
    await expect(failure).rejects.toThrow(/option "db"/);
  });
});

describe('databaseNameOf', () => {
  it.each([
    ['mongodb://localhost/shop', 'shop'],
    ['mongodb://u:p@h1:27017,h2:27018/shop?replicaSet=rs', 'shop'],
    ['mongodb+srv://cluster.example.net/my%20db?w=majority', 'my db'],
    ['mongodb://localhost:27017', undefined],
    ['mongodb://localhost:27017/', undefined],
    ['mongodb://localhost:27017/?w=1', undefined],
  ])('%s -> %s', (uri, expected) => {
    expect(databaseNameOf(uri)).toBe(expected);
  });
});
