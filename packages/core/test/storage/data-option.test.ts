/**
 * `createStore({ data })`: the embedded engine keeps its data in a
 * directory across restarts; `"memory"` keeps it in memory; `data` with `db` is refused; a
 * directory another store holds makes `ready` reject with the engine's clear message.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStoreHandler } from '../../src/handler/handler';
import type { StoreRequest } from '../../src/model/http';
import { optionError } from '../support/option-error';

const quiet = { warn() {}, error() {} };
const get = (path: string): StoreRequest => ({ method: 'GET', path, rawQuery: '', headers: {} });
const post = (path: string, body: unknown): StoreRequest => ({
  method: 'POST',
  path,
  rawQuery: '',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('createStore({ data })', () => {
  it('keeps a created document across a restart of the store', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'store-data-')), 'nested', 'data');
    const first = createStoreHandler({ data: dir, logger: quiet });
    expect((await first(post('/posts', { _id: 'p1', title: 'kept' })))?.status).toBe(201);
    await first.close();

    const second = createStoreHandler({ data: dir, logger: quiet });
    const answer = await second(get('/posts/p1'));
    expect(answer?.status).toBe(200);
    expect(JSON.parse(String(answer?.body))).toEqual({ _id: 'p1', title: 'kept' });
    await second.close();
  });

  it('keeps "memory" in memory: nothing on disk, nothing kept', async () => {
    const cwd = process.cwd();
    const store = createStoreHandler({ data: 'memory', logger: quiet });
    await store(post('/posts', { _id: 'p1' }));
    await store.close();
    expect(existsSync(join(cwd, 'memory'))).toBe(false);
    const again = createStoreHandler({ data: 'memory', logger: quiet });
    expect((await again(get('/posts/p1')))?.status).toBe(404);
    await again.close();
  });

  it('makes ready reject, naming the directory, when another store holds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-data-'));
    const holder = createStoreHandler({ data: dir, logger: quiet });
    await holder.ready;
    const second = createStoreHandler({ data: dir, logger: quiet });
    await expect(second.ready).rejects.toMatchObject({
      name: 'EmbeddedDataError',
      reason: 'locked',
      message: expect.stringContaining(`${dir} is in use`),
    });
    await second.close();
    await holder.close();
  });

  it.each([
    ['with db', { data: '/tmp/x', db: 'mongodb://localhost/shop' }, /cannot be combined with db/],
    ['empty', { data: '' }, /expected a directory/],
    ['not a string', { data: 42 }, /expected a directory/],
  ])('refuses data %s with invalid_config naming data', (_, config, message) => {
    const failure = optionError(config);
    expect(failure).toMatchObject({ code: 'invalid_config', option: 'data' });
    expect(failure.message).toMatch(message);
  });
});
