import type { StoreCollection } from '@store/common';
import { describeEngines } from '@store/test-kit';
import { beforeAll, expect, it } from 'vitest';
import { ids } from './fixtures';

/** Words chosen so MongoDB's stemming and stop words change nothing. */
const POSTS = [
  { _id: 1, title: 'Blue giants', body: 'The largest animal on earth sings' },
  { _id: 2, title: 'Coffee guide', body: 'Brewing coffee with a French press' },
  { _id: 3, title: 'Whale songs', body: 'Recordings of humpback whale music' },
  { _id: 4, title: 'Café culture', body: 'Espresso bars of Vienna', tags: ['coffee'] },
];

describeEngines('$text search', (engine) => {
  let posts: StoreCollection;
  beforeAll(async () => {
    const db = await engine.createDb();
    posts = db.collection('posts');
    await posts.createIndex({ title: 'text', body: 'text' });
    for (const post of POSTS) await posts.insertOne(post);
  });

  it.each([
    ['one term, any case (tags are not indexed)', 'COFFEE', [2]],
    ['any of several terms', 'whale espresso', [3, 4]],
    ['a quoted phrase', '"french press"', [2]],
    ['a phrase and a term (the phrase is required)', '"humpback whale" coffee', [3]],
    ['a negated term', 'whale -humpback', []],
    ['diacritics ignored', 'cafe', [4]],
    ['a term of another indexed field', 'vienna', [4]],
    ['no match', 'giraffe', []],
  ])('%s: %s', async (_title, search, expected) => {
    const found = await posts.find({ $text: { $search: search } }, { sort: { _id: 1 } }).toArray();
    expect(ids(found)).toEqual(expected);
    expect(await posts.countDocuments({ $text: { $search: search } })).toBe(expected.length);
  });

  it('combines $text with other conditions', async () => {
    const found = await posts
      .find({ $text: { $search: 'coffee whale' }, _id: { $gt: 2 } }, { sort: { _id: 1 } })
      .toArray();
    expect(ids(found)).toEqual([3]);
  });

  it('fails with IndexNotFound (code 27) on a collection without a text index', async () => {
    const db = await engine.createDb();
    await db.collection('plain').insertOne({ title: 'x' });
    await expect(
      db
        .collection('plain')
        .find({ $text: { $search: 'x' } })
        .toArray(),
    ).rejects.toMatchObject({ code: 27 });
  });
});
