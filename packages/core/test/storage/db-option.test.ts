/**
 * The newcomer's `db` (issue 16): `db: process.env.MONGODB_URI` with the variable set empty is
 * the embedded engine, as the README says; a connection string without a database name is
 * refused (the driver would silently write to `test`) unless MONGODB_DB names one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveStoreOptions } from '../../src/config/options';
import { optionError } from '../support/option-error';

describe('the db option', () => {
  const saved = process.env.MONGODB_DB;
  afterEach(() => {
    if (saved === undefined) delete process.env.MONGODB_DB;
    else process.env.MONGODB_DB = saved;
  });

  it('takes an empty string as no database: the embedded engine', () => {
    expect(resolveStoreOptions({ db: '' }).db).toBeUndefined();
  });

  it.each(['mongodb://127.0.0.1:27017', 'mongodb://127.0.0.1:27017/', 'mongodb+srv://c.example.net/?w=1'])(
    'refuses %s, which names no database, saying how to name one',
    (db) => {
      delete process.env.MONGODB_DB;
      const failure = optionError({ db });
      expect(failure).toMatchObject({ code: 'invalid_config', option: 'db' });
      expect(failure.message).toMatch(
        /names no database: add one \(mongodb:\/\/host:27017\/mydb\) or set MONGODB_DB/,
      );
    },
  );

  it('accepts a connection string without a database when MONGODB_DB names one', () => {
    process.env.MONGODB_DB = 'shop';
    expect(resolveStoreOptions({ db: 'mongodb://127.0.0.1:27017' }).db).toBe('mongodb://127.0.0.1:27017');
  });
});
