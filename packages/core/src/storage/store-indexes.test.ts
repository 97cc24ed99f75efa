import { describe, expect, it } from 'vitest';
import { resolveStoreOptions } from '../config/options';
import { storeIndexes } from './store-indexes';

describe('storeIndexes', () => {
  it("ensures an ascending index on each field of a resource's indexes, once per collection and field", () => {
    const options = resolveStoreOptions({
      resources: {
        items: { indexes: ['n', 'meta.rank'] },
        also: { collection: 'items', indexes: ['n'] },
      },
    });
    expect(storeIndexes(options)).toEqual([
      { collection: 'items', index: { spec: { n: 1 }, options: { name: 'store_n_1' } } },
      { collection: 'items', index: { spec: { 'meta.rank': 1 }, options: { name: 'store_meta.rank_1' } } },
    ]);
  });

  it('refuses indexes that are not field paths, naming the option', () => {
    expect(() => resolveStoreOptions({ resources: { items: { indexes: ['$where'] } } })).toThrow(
      /resources\.items\.indexes\[0\]/,
    );
  });
});
