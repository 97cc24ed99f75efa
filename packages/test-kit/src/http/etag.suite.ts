import { describe, expect, it } from 'vitest';
import { startAccess } from './access-fixtures';
import type { Start } from './fixtures';
import { type Api, expectProblem, field, readStored } from './harness';

/** A strong tag of one document: `"<revision>:<hash>"`. */
const STRONG = /^"[\w-]+:[\w-]+"$/;

/**
 * A hook that holds each caller until `size` callers are waiting, then lets them all go on
 * together (or after a second, should the others never come).
 */
function meeting(size: number): () => Promise<void> {
  const waiting: Array<() => void> = [];
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length >= size) {
        for (const release of waiting.splice(0)) release();
      } else setTimeout(resolve, 1000);
    });
}

/**
 * For each of the notes `n0` .. `n<rounds - 1>`: two requests sent at once with the document's
 * current tag in `If-Match`; exactly one may succeed, the other is a 412.
 */
async function raceEach(api: Api, method: string, body: unknown, rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const path = `/notes/n${i}`;
    const tag = (await api.get(path)).headers.get('etag') as string;
    const send = () => api.request(method, path, { body, headers: { 'if-match': tag } });
    const statuses = (await Promise.all([send(), send()])).map((reply) => reply.status).sort();
    expect(statuses).toEqual(method === 'DELETE' ? [204, 412] : [200, 412]);
  }
}

/** Entity tags, `If-None-Match` on reads and `If-Match` on writes. */
export function etagTests(start: Start): void {
  describe('ETag and If-None-Match on reads', () => {
    it('tags a document strongly, keeps the tag while it is unchanged and changes it with a write', async () => {
      const api = await start();
      await api.seed('notes', [{ _id: 'n1', text: 'a' }]);
      const first = await api.get('/notes/n1');
      const tag = first.headers.get('etag');
      expect(tag).toMatch(STRONG);
      expect((await api.get('/notes/n1')).headers.get('etag')).toBe(tag);
      await api.request('PATCH', '/notes/n1', { body: { text: 'b' } });
      expect((await api.get('/notes/n1')).headers.get('etag')).not.toBe(tag);
    });

    it('changes the tag with every write, also one that stores the same values', async () => {
      const api = await start();
      await api.seed('notes', [{ _id: 'n1', text: 'a' }]);
      const tags = [(await api.get('/notes/n1')).headers.get('etag')];
      await api.request('PATCH', '/notes/n1', { body: { text: 'a' } });
      tags.push((await api.get('/notes/n1')).headers.get('etag'));
      await api.request('PUT', '/notes/n1', { body: { text: 'a' } });
      tags.push((await api.get('/notes/n1')).headers.get('etag'));
      expect(new Set(tags).size).toBe(3);
    });

    it('answers 304 without a body when If-None-Match names the current tag, 200 when it does not', async () => {
      const api = await start();
      await api.seed('notes', [{ _id: 'n1', text: 'a' }]);
      const tag = (await api.get('/notes/n1')).headers.get('etag') as string;
      const cached = await api.request('GET', '/notes/n1', { headers: { 'if-none-match': tag } });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe('');
      expect(cached.headers.get('etag')).toBe(tag);
      const stale = await api.request('GET', '/notes/n1', { headers: { 'if-none-match': '"other"' } });
      expect(stale.status).toBe(200);
    });

    it('tags a list weakly and answers 304 until the list changes', async () => {
      const api = await start();
      await api.seed('notes', [{ _id: 'n1', text: 'a' }]);
      const tag = (await api.get('/notes')).headers.get('etag') as string;
      expect(tag).toMatch(/^W\/"[\w-]+"$/);
      expect((await api.request('GET', '/notes', { headers: { 'if-none-match': tag } })).status).toBe(304);
      await api.post('/notes', { _id: 'n2' });
      expect((await api.request('GET', '/notes', { headers: { 'if-none-match': tag } })).status).toBe(200);
    });

    it('puts no tag on errors; a write answers the tag a GET then gives', async () => {
      const api = await start();
      expect((await api.get('/notes/missing')).headers.get('etag')).toBeNull();
      const created = await api.post('/notes', { _id: 'n1', text: 'a' });
      expect(created.headers.get('etag')).toMatch(STRONG);
      expect((await api.get('/notes/n1')).headers.get('etag')).toBe(created.headers.get('etag'));
      const patched = await api.request('PATCH', '/notes/n1', { body: { text: 'b' } });
      expect((await api.get('/notes/n1')).headers.get('etag')).toBe(patched.headers.get('etag'));
    });

    it('never shows the revision it stores, and refuses queries and writes on it', async () => {
      const api = await start();
      await api.seed('posts', [{ _id: 'p1' }]);
      await api.seed('notes', [{ _id: 'n1', text: 'a', post_id: 'p1' }]);
      for (const path of [
        '/notes/n1',
        '/notes',
        '/posts/p1?$populate=notes',
        '/notes?$fill=posts',
        '/notes/n1?$select=_store_rev',
        '/notes?$select=text,_store_rev',
      ])
        expect((await api.get(path)).text).not.toContain('_store_rev');
      expectProblem(await api.get('/notes?_store_rev=x'), 400, 'invalid_query');
      expectProblem(await api.get('/notes?$sort=_store_rev'), 400, 'invalid_query');
      expectProblem(await api.post('/notes', { _id: 'n2', _store_rev: 'x' }), 403, 'forbidden');
      expectProblem(await api.request('PATCH', '/notes/n1', { body: { _store_rev: 'x' } }), 403, 'forbidden');
      expect(await readStored(api, 'notes', { _id: 'n1' })).toEqual({ _id: 'n1', text: 'a', post_id: 'p1' });
    });
  });

  describe('If-Match on PUT, PATCH and DELETE', () => {
    const writes = [
      ['PUT', { text: 'put' }],
      ['PATCH', { text: 'patched' }],
      ['DELETE', undefined],
    ] as const;

    it.each(writes)(
      '%s with the current tag writes; with a stale one it is 412 and changes nothing',
      async (method, body) => {
        const api = await start();
        await api.seed('notes', [{ _id: 'n1', text: 'a' }]);
        const stale = (await api.get('/notes/n1')).headers.get('etag') as string;
        await api.request('PATCH', '/notes/n1', { body: { text: 'b' } });
        const refused = await api.request(method, '/notes/n1', { body, headers: { 'if-match': stale } });
        expectProblem(refused, 412, 'precondition_failed');
        expect(await readStored(api, 'notes', { _id: 'n1' })).toEqual({ _id: 'n1', text: 'b' });
        const current = (await api.get('/notes/n1')).headers.get('etag') as string;
        const written = await api.request(method, '/notes/n1', { body, headers: { 'if-match': current } });
        expect(written.status, written.text).toBe(method === 'DELETE' ? 204 : 200);
      },
    );

    it('takes the tag of any answer about the document, a $select one too, and a list of tags or *', async () => {
      const api = await start();
      await api.seed('notes', [{ _id: 'n1', text: 'a', more: 1 }]);
      const selected = (await api.get('/notes/n1?$select=text')).headers.get('etag') as string;
      const byTag = await api.request('PATCH', '/notes/n1', {
        body: { text: 'b' },
        headers: { 'if-match': selected },
      });
      expect(byTag.status, byTag.text).toBe(200);
      const tag = byTag.headers.get('etag') as string;
      const listed = await api.request('PATCH', '/notes/n1', {
        body: { text: 'c' },
        headers: { 'if-match': `"gone:x", ${tag}` },
      });
      expect(listed.status, listed.text).toBe(200);
      const any = await api.request('PATCH', '/notes/n1', {
        body: { text: 'd' },
        headers: { 'if-match': '*' },
      });
      expect(any.status, any.text).toBe(200);
    });

    it('refuses a weak tag, and a document that is not there, with 412', async () => {
      const api = await start();
      await api.seed('notes', [{ _id: 'n1', text: 'a' }]);
      const tag = (await api.get('/notes/n1')).headers.get('etag') as string;
      const weak = await api.request('PATCH', '/notes/n1', {
        body: { text: 'b' },
        headers: { 'if-match': `W/${tag}` },
      });
      expectProblem(weak, 412, 'precondition_failed');
      expectProblem(
        await api.request('DELETE', '/notes/none', { headers: { 'if-match': '*' } }),
        412,
        'precondition_failed',
      );
      expectProblem(await api.request('DELETE', '/notes/none'), 404, 'not_found');
    });

    it('works on a document stored without the store (its tag is a hash of its content)', async () => {
      const api = await start();
      await api.db.collection('notes').insertOne({ _id: 'n1', text: 'a' });
      const tag = (await api.get('/notes/n1')).headers.get('etag') as string;
      expect(tag).toMatch(STRONG);
      await api.db.collection('notes').updateOne({ _id: 'n1' }, { $set: { text: 'changed elsewhere' } });
      const stale = await api.request('PATCH', '/notes/n1', {
        body: { text: 'b' },
        headers: { 'if-match': tag },
      });
      expectProblem(stale, 412, 'precondition_failed');
      const current = (await api.get('/notes/n1')).headers.get('etag') as string;
      const fresh = await api.request('PATCH', '/notes/n1', {
        body: { text: 'b' },
        headers: { 'if-match': current },
      });
      expect(fresh.status, fresh.text).toBe(200);
    });

    it.each([
      ['PATCH', { text: 'same' }],
      ['PUT', { text: 'same' }],
      ['DELETE', undefined],
    ] as const)(
      'lets exactly one of two concurrent %s requests with the same If-Match through',
      async (method, body) => {
        const api = await start();
        const rounds = 5;
        await api.seed(
          'notes',
          Array.from({ length: rounds }, (_, i) => ({ _id: `n${i}`, text: 'a' })),
        );
        await raceEach(api, method, body, rounds);
      },
    );

    it.each([
      ['PATCH', { text: 'same' }],
      ['PUT', { text: 'same' }],
      ['DELETE', undefined],
    ] as const)(
      'lets one of two %s requests through when both passed the check before either wrote',
      async (method, body) => {
        // Both requests wait in their before-hook (after the If-Match check) until the other is
        // there too: only an atomic check-and-write keeps the second one from writing.
        const meet = meeting(2);
        const api = await start({
          resources: { notes: { hooks: { beforeWrite: meet, beforeDelete: meet } } },
        });
        for (const i of [0, 1, 2]) await api.db.collection('notes').insertOne({ _id: `n${i}`, text: 'a' });
        await raceEach(api, method, body, 3);
      },
    );

    it("never writes another user's document, whatever the tag", async () => {
      const { send } = await startAccess(start);
      // drafts: anyone reads, only the owner updates; notes: only the owner reads or writes.
      const bobsDraftTag = (await send('ada', 'GET', '/drafts/b1')).headers.get('etag') as string;
      expect(bobsDraftTag).toMatch(STRONG);
      const attempts: Array<[string, string]> = [
        ['/drafts/b1', bobsDraftTag],
        ['/notes/b1', (await send('bob', 'GET', '/notes/b1')).headers.get('etag') as string],
        ['/notes/b1', '*'],
      ];
      for (const [path, tag] of attempts) {
        const reply = await send('ada', 'PATCH', path, { title: 'mine' }, { 'if-match': tag });
        expectProblem(reply, 412, 'precondition_failed');
        expect(field((await send('bob', 'GET', path)).json, 'title')).toBe('bob');
      }
    });
  });
}
