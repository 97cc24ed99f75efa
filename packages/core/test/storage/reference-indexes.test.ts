/**
 * The reference fields of declared relations are indexed at start: `<singular>_id` and
 * `<singular>_ids` always, and with a foreign dialect on, the json-server spellings
 * `<singular>Id` and `<singular>Ids` the relations also join on.
 */
import { createEmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveStoreOptions } from '../../src/config/options';
import { createStoreHandler } from '../../src/handler/handler';
import type { StoreConfig } from '../../src/model/config';
import type { StoreHandler } from '../../src/model/http';
import { storeIndexes } from '../../src/storage/store-indexes';

const RELATIONS = {
  posts: { population: { comments: {} } },
  comments: {},
} satisfies StoreConfig['resources'];

/** The fields of `comments` indexed in ascending order by the store. */
function commentIndexes(config: StoreConfig): string[] {
  return storeIndexes(resolveStoreOptions({ resources: RELATIONS, ...config }))
    .filter(({ collection }) => collection === 'comments')
    .map(({ index }) => Object.keys(index.spec).join());
}

const handlers: StoreHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handle) => handle.close()));
});

describe('the indexes of relation references', () => {
  it("are <singular>_id and <singular>_ids in the store's own dialect", () => {
    expect(commentIndexes({})).toEqual(['post_id', 'post_ids']);
  });

  it.each([
    ['both dialects', true],
    ['json-server', { jsonServer: true }],
    ['simple-rest', { simpleRest: true }],
  ] as const)('also cover <singular>Id and <singular>Ids with %s on', (_label, dialects) => {
    expect(commentIndexes({ dialects })).toEqual(['post_id', 'post_ids', 'postId', 'postIds']);
  });

  it('follow a singular override', () => {
    const resources = { people: { singular: 'person', population: { comments: {} } }, comments: {} };
    expect(commentIndexes({ dialects: true, resources })).toEqual([
      'person_id',
      'person_ids',
      'personId',
      'personIds',
    ]);
  });

  it('exist in the collection once the store has started with a foreign dialect', async () => {
    const db = createEmbeddedDb();
    const handle = createStoreHandler({ db, dialects: true, resources: RELATIONS });
    handlers.push(handle);
    await handle.ready;
    const names = (await db.collection('comments').listIndexes().toArray()).map(({ name }) => name);
    expect(names).toEqual(
      expect.arrayContaining(['store_post_id_1', 'store_post_ids_1', 'store_postId_1', 'store_postIds_1']),
    );
  });
});
