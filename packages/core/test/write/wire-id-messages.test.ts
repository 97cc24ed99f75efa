/**
 * The messages of writes name the primary key as the wire shows it: `_id` by default, `id` under
 * `wireId: 'id'`; their codes are the same under both.
 */
import type { Document } from '@store/common';
import { createEmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStoreHandler } from '../../src/handler/handler';
import type { StoreConfig, WireId } from '../../src/model/config';
import type { StoreHandler } from '../../src/model/http';

interface Problem {
  status: number;
  code: string;
  detail: string;
}

const handlers: StoreHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handle) => handle.close()));
});

/** A store with posts 1 and 2 (numeric `_id`s), its key named `wireId` on the wire. */
async function open(wireId: WireId, config: StoreConfig = {}) {
  const db = createEmbeddedDb();
  await db.collection('posts').insertMany([
    { _id: 1, title: 'one' },
    { _id: 2, title: 'two' },
  ]);
  const handle = createStoreHandler({ db, wireId, ...config });
  handlers.push(handle);
  await handle.ready;
  return handle;
}

async function problemOf(
  handle: StoreHandler,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<Problem> {
  const [pathname, rawQuery = ''] = path.split('?') as [string, string?];
  const answer = await handle({
    method,
    path: pathname,
    rawQuery,
    headers: body === undefined ? {} : { 'content-type': contentType },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const { status, code, detail } = JSON.parse(answer?.body ?? '{}') as Problem;
  return { status, code, detail };
}

/** The body key that is the primary key under `wireId`, at `path` below it (`id.x`). */
const keyed = (wireId: WireId, value: unknown, below = ''): Document => ({ [`${wireId}${below}`]: value });

describe.each(['_id', 'id'] as const)('write messages under wireId %j', (wireId) => {
  it('a bulk PATCH that sets the key names it, 400 invalid_body', async () => {
    const handle = await open(wireId);
    expect(await problemOf(handle, 'PATCH', '/posts?title=one', keyed(wireId, 9))).toEqual({
      status: 400,
      code: 'invalid_body',
      detail: `body.${wireId}: a bulk PATCH cannot set ${wireId}.`,
    });
  });

  it('a PATCH into the key names it, 400 invalid_body', async () => {
    const handle = await open(wireId);
    expect(await problemOf(handle, 'PATCH', '/posts/1', keyed(wireId, 9, '.x'))).toEqual({
      status: 400,
      code: 'invalid_body',
      detail: `body.${wireId}: an ${wireId} cannot change.`,
    });
  });

  it('a PATCH or PUT naming another document names the key, 400 invalid_body', async () => {
    const handle = await open(wireId);
    const detail = `body.${wireId}: differs from the id in the path; an ${wireId} cannot change.`;
    for (const method of ['PATCH', 'PUT']) {
      expect(await problemOf(handle, method, '/posts/1', { ...keyed(wireId, 2), title: 'x' })).toEqual({
        status: 400,
        code: 'invalid_body',
        detail,
      });
    }
  });

  it('a merge patch removing the key names it, 400 invalid_body', async () => {
    const merge = 'application/merge-patch+json';
    const handle = await open(wireId);
    expect(await problemOf(handle, 'PATCH', '/posts/1', keyed(wireId, null), merge)).toEqual({
      status: 400,
      code: 'invalid_body',
      detail: `body.${wireId}: an ${wireId} cannot be removed.`,
    });
  });

  it('a POST whose id aliases a stored one names the key, 409 conflict', async () => {
    const handle = await open(wireId);
    expect(await problemOf(handle, 'POST', '/posts', keyed(wireId, '1'))).toEqual({
      status: 409,
      code: 'conflict',
      detail: `A document with the same ${wireId} already exists (7 and "7", or a hex string and its ObjectId, are the same id).`,
    });
  });

  it('a bulk POST with a taken or repeated id names the key and the item, 409 conflict', async () => {
    const handle = await open(wireId);
    expect(await problemOf(handle, 'POST', '/posts', [keyed(wireId, 5), keyed(wireId, '5')])).toEqual({
      status: 409,
      code: 'conflict',
      detail: `Item 1: its ${wireId} is the same as item 0's (7 and "7", a hex string and its ObjectId, are one id).`,
    });
    expect(await problemOf(handle, 'POST', '/posts', [keyed(wireId, 5), keyed(wireId, '2')])).toEqual({
      status: 409,
      code: 'conflict',
      detail: `Item 1: a document with the same ${wireId} already exists (7 and "7", or a hex string and its ObjectId, are the same id).`,
    });
  });

  it('a bulk change without a filter shows the filter for every document with the key, 400 filter_required', async () => {
    const handle = await open(wireId);
    const problem = await problemOf(handle, 'DELETE', '/posts');
    expect(problem).toMatchObject({ status: 400, code: 'filter_required' });
    expect(problem.detail).toMatch(new RegExp(`say so: \\?${wireId}:exists=true$`));
  });

  it('logs a write whose afterRead failed as answering only the key', async () => {
    const logger = { error: vi.fn(), warn: vi.fn() };
    const afterRead = () => {
      throw new Error('afterRead broke');
    };
    const handle = await open(wireId, { logger, resources: { posts: { hooks: { afterRead } } } });
    const answer = await handle({
      method: 'POST',
      path: '/posts',
      rawQuery: '',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(keyed(wireId, 3)),
    });
    expect(answer?.status).toBe(201);
    expect(JSON.parse(answer?.body ?? '')).toEqual(keyed(wireId, 3));
    expect(logger.error).toHaveBeenCalledWith(
      expect.stringMatching(new RegExp(`the answer carries only the ${wireId}$`)),
      expect.anything(),
    );
  });
});
