import { expect, it } from 'vitest';
import { attachRelations, childrenFilter, requiredFields, resolvePopulateOptions } from '../src/index';
import { describeEngines, seed } from './support/engines';

it('camelCase adds <singular>Id and <singular>Ids to the children filter and the join keys', () => {
  expect(childrenFilter('posts', [1], { camelCase: true })).toEqual({
    $or: [
      { post_id: { $in: [1, '1'] } },
      { post_ids: { $in: [1, '1'] } },
      { postId: { $in: [1, '1'] } },
      { postIds: { $in: [1, '1'] } },
    ],
  });
  expect(requiredFields('comments', [], ['posts'], { camelCase: true })).toEqual([
    'post_id',
    'post_ids',
    'postId',
    'postIds',
  ]);
  expect(resolvePopulateOptions().camelCase).toBe(false);
  expect(() => resolvePopulateOptions({ camelCase: 'yes' as never })).toThrow(/camelCase/);
});

describeEngines('camelCase references', (engine) => {
  it('populates and fills through postId and postIds as through post_id, each child once', async () => {
    const db = await engine.createDb();
    const posts = [{ _id: 1 }, { _id: 2 }];
    const comments = [
      { _id: 'a', postId: 1 },
      { _id: 'b', post_id: 1 },
      { _id: 'c', postIds: [1, 2] },
      { _id: 'd', postId: 2, post_id: 2 },
    ];
    await seed(db, 'posts', posts);
    await seed(db, 'comments', comments);
    const options = resolvePopulateOptions({ camelCase: true });
    const populated = await attachRelations(
      posts,
      { db, resource: 'posts', populate: ['comments'] },
      options,
    );
    expect(populated.map((post) => (post.comments as { _id: string }[]).map((c) => c._id))).toEqual([
      ['a', 'b', 'c'],
      ['c', 'd'],
    ]);
    const filled = await attachRelations(comments, { db, resource: 'comments', fill: ['posts'] }, options);
    expect(filled.map((comment) => (comment.posts as { _id: number }[]).map((p) => p._id))).toEqual([
      [1],
      [1],
      [1, 2],
      [2],
    ]);
    const plain = await attachRelations(posts, { db, resource: 'posts', populate: ['comments'] });
    expect(plain.map((post) => (post.comments as { _id: string }[]).map((c) => c._id))).toEqual([
      ['b'],
      ['d'],
    ]);
  });
});
