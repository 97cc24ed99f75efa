/**
 * One answer's cost is bounded (issue 15, finding 2): a child listed under many parents is sent
 * once per parent, so the related documents are counted each time they appear, and past
 * `maxDocuments` the answer is a 400 `too_many_documents` before anything is copied.
 */
import { expect, it } from 'vitest';
import { attachRelations, PopulateError, resolvePopulateOptions } from '../src/index';
import { countingDb } from './support/counting';
import { describeEngines, seed } from './support/engines';

describeEngines('the bound on related documents per answer', (engine) => {
  /** 50 parents that each list the same 40 children: 2,000 related documents in the answer. */
  async function amplified() {
    const db = await engine.createDb();
    const children = Array.from({ length: 40 }, (_, i) => ({ _id: `c${i}`, body: 'x'.repeat(100) }));
    await seed(db, 'tags', children);
    const ids = children.map((child) => child._id);
    const posts = Array.from({ length: 50 }, (_, i) => ({ _id: i + 1, tag_ids: ids }));
    return { db, posts };
  }

  it('refuses an answer past maxDocuments with too_many_documents, after one query per relation', async () => {
    const { db, posts } = await amplified();
    const counted = countingDb(db);
    const options = resolvePopulateOptions({ maxDocuments: 1_999 });
    const failure = attachRelations(posts, { db: counted.db, resource: 'posts', fill: ['tags'] }, options);
    await expect(failure).rejects.toBeInstanceOf(PopulateError);
    await expect(failure).rejects.toMatchObject({
      status: 400,
      code: 'too_many_documents',
      data: { count: 2_000, maxDocuments: 1_999 },
    });
    expect(counted.calls).toHaveLength(1);
  });

  it('answers in full at exactly maxDocuments', async () => {
    const { db, posts } = await amplified();
    const options = resolvePopulateOptions({ maxDocuments: 2_000 });
    const out = await attachRelations(posts, { db, resource: 'posts', fill: ['tags'] }, options);
    expect(out.every((post) => (post.tags as unknown[]).length === 40)).toBe(true);
  });

  it('bounds answers by default (10,000) and refuses a maxDocuments that is not a positive integer', async () => {
    expect(resolvePopulateOptions().maxDocuments).toBe(10_000);
    expect(() => resolvePopulateOptions({ maxDocuments: 0 })).toThrow(/"maxDocuments"/);
  });
});
