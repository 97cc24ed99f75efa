import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedStore, serveStore } from './serve';

let store: ServedStore;
beforeAll(async () => {
  store = await serveStore({ wireId: 'id' });
});
afterAll(() => store.close());

const get = async (path: string) => {
  const answer = await fetch(`${store.url}${path}`);
  return { status: answer.status, body: (await answer.json()) as unknown };
};

describe("wireId: 'id'", () => {
  it('shows the seed numeric ids as numbers named id, and addresses them by path', async () => {
    const { status, body } = await get('/posts/1');
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: 1, title: 'Post 1' });
    expect(body).not.toHaveProperty('_id');
  });

  it('filters and sorts by id', async () => {
    const { body } = await get('/posts?id=2&id=5&$sort=-id');
    expect((body as { id: number }[]).map((post) => post.id)).toEqual([5, 2]);
    const raw = await get(`/posts?$query=${encodeURIComponent('{"id":{"$gte":11}}')}`);
    expect((raw.body as { id: number }[]).map((post) => post.id)).toEqual([11, 12]);
  });
});

describe('relations by <singular>Id with a foreign dialect on', () => {
  let served: ServedStore;
  beforeAll(async () => {
    served = await serveStore({ wireId: 'id', dialects: true });
  });
  afterAll(() => served.close());

  it('nested routes, $populate and $fill join postId', async () => {
    const nested = (await (await fetch(`${served.url}/posts/3/comments`)).json()) as { id: number }[];
    expect(nested.map((comment) => comment.id)).toEqual([4, 5, 6]);
    const post = (await (await fetch(`${served.url}/posts/1?$populate=comments`)).json()) as {
      comments: { id: number; postId: number }[];
    };
    expect(post.comments).toEqual([
      { id: 1, body: 'Comment 1', postId: 1 },
      { id: 2, body: 'Comment 2', postId: 1 },
    ]);
    const comment = (await (await fetch(`${served.url}/comments/7?$fill=posts`)).json()) as {
      posts: { id: number }[];
    };
    expect(comment.posts.map((p) => p.id)).toEqual([5]);
  });
});
