import { describe, expect, it } from 'vitest';
import { startAccess } from './access-fixtures';
import type { Start } from './fixtures';
import { type Api, expectProblem, field, readStored } from './harness';

/** A strong tag of one document: `"<hash of the answer>"`, nothing else in it. */
const STRONG = /^"[\w-]+"$/;

/** The characters at the start of `a` and `b` that are the same. */
function sharedPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && a[length] === b[length]) length++;
  return length;
}

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

    it('an ETag does not reveal how many writes happened', async () => {
      const api = await start();
      await api.seed('notes', [
        { _id: 'n1', text: 'a' },
        { _id: 'n2', text: 'other' },
      ]);
      const original = (await api.get('/notes/n1')).headers.get('etag') as string;
      // Successive writes of one document: each tag differs, and none shares a counter-like part
      // with another (a common prefix past a few characters would be one).
      const tags = [original];
      for (let i = 0; i < 12; i++) {
        const written = await api.request('PATCH', '/notes/n1', { body: { text: `v${i}` } });
        tags.push(written.headers.get('etag') as string);
        await api.request('PATCH', '/notes/n2', { body: { text: `other ${i}` } });
      }
      for (const tag of tags) expect(tag).toMatch(STRONG);
      expect(new Set(tags).size).toBe(tags.length);
      for (const [i, a] of tags.entries())
        for (const b of tags.slice(i + 1)) expect(sharedPrefix(a.slice(1), b.slice(1))).toBeLessThan(4);
      // The tag is a hash of the answer: the same answer has the same tag, however many writes
      // (of this document or others) came between.
      const back = await api.request('PATCH', '/notes/n1', { body: { text: 'a' } });
      expect(back.headers.get('etag')).toBe(original);
      expect((await api.get('/notes/n1')).headers.get('etag')).toBe(original);
      expect((await api.request('PUT', '/notes/n1', { body: { text: 'a' } })).headers.get('etag')).toBe(
        original,
      );
      expect((await api.request('PATCH', '/notes/n1', { body: { text: 'a' } })).headers.get('etag')).toBe(
        original,
      );
      // An answer of the same bytes has the same tag, whatever the query that shaped it.
      expect((await api.get('/notes/n1?$select=_id,text')).headers.get('etag')).toBe(original);
    });

    it("an ETag does not change when another document or another user's document is written", async () => {
      const { send } = await startAccess(start);
      // notes: only the owner reads or writes; open: anyone reads and writes.
      const tagsOf = async () => ({
        note: (await send('ada', 'GET', '/notes/a1')).headers.get('etag'),
        open: (await send('ada', 'GET', '/open/a1')).headers.get('etag'),
      });
      const before = await tagsOf();
      expect(before.note).toMatch(STRONG);
      const mine = await send('ada', 'PATCH', '/notes/a1', { title: 'ada, edited' });
      const edited = mine.headers.get('etag');
      for (let i = 0; i < 10; i++) {
        expect((await send('bob', 'PATCH', '/notes/b1', { title: `bob ${i}` })).status).toBe(200);
        expect((await send('bob', 'PATCH', '/open/b1', { title: `bob ${i}` })).status).toBe(200);
        expect((await send('bob', 'POST', '/notes', { title: `new ${i}` })).status).toBe(201);
        expect((await send('ada', 'POST', '/open', { title: `ada's ${i}` })).status).toBe(201);
      }
      expect((await send('bob', 'DELETE', '/notes/b1')).status).toBe(204);
      expect((await send('ada', 'GET', '/notes/a1')).headers.get('etag')).toBe(edited);
      // Written back as it was, ada's note has its first tag again: nothing in it counts the
      // writes of bob (or hers) in between.
      const back = await send('ada', 'PATCH', '/notes/a1', { title: 'ada' });
      expect(back.headers.get('etag')).toBe(before.note);
      expect(await tagsOf()).toEqual(before);
      // Two readers of the same answer get the same tag.
      expect((await send('bob', 'GET', '/open/a1')).headers.get('etag')).toBe(before.open);
    });

    it("a write to a hidden field leaves the reader's ETag unchanged", async () => {
      const api = await start({ resources: { notes: { hidden: ['secret'] } } });
      await api.seed('notes', [{ _id: 'n1', text: 'a', secret: 's0' }]);
      const tag = (await api.get('/notes/n1')).headers.get('etag') as string;
      expect(tag).toMatch(STRONG);
      const patched = await api.request('PATCH', '/notes/n1', { body: { secret: 's1' } });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.headers.get('etag')).toBe(tag);
      const put = await api.request('PUT', '/notes/n1', { body: { text: 'a', secret: 's2' } });
      expect(put.headers.get('etag')).toBe(tag);
      await api.db.collection('notes').updateOne({ _id: 'n1' }, { $set: { secret: 's3' } });
      expect(await readStored(api, 'notes', { _id: 'n1' })).toEqual({ _id: 'n1', text: 'a', secret: 's3' });
      expect((await api.get('/notes/n1')).headers.get('etag')).toBe(tag);
      expect((await api.request('GET', '/notes/n1', { headers: { 'if-none-match': tag } })).status).toBe(304);
      // As this reader sees it the document has not changed: its tag still passes If-Match.
      const conditional = await api.request('PATCH', '/notes/n1', {
        body: { text: 'b' },
        headers: { 'if-match': tag },
      });
      expect(conditional.status, conditional.text).toBe(200);
      expect(conditional.headers.get('etag')).not.toBe(tag);
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
      await api.request('PATCH', '/notes/n1', { body: { text: 'b' } });
      const changed = await api.request('GET', '/notes/n1', { headers: { 'if-none-match': tag } });
      expect(changed.status).toBe(200);
      const again = await api.request('GET', '/notes/n1', {
        headers: { 'if-none-match': changed.headers.get('etag') as string },
      });
      expect(again.status).toBe(304);
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

    it('takes the tag of a GET or of a write answer, a list of tags or *; a tag of a $select answer names that answer, not the document', async () => {
      const api = await start();
      await api.seed('notes', [{ _id: 'n1', text: 'a', more: 1 }]);
      const selected = (await api.get('/notes/n1?$select=text')).headers.get('etag') as string;
      expectProblem(
        await api.request('PATCH', '/notes/n1', { body: { text: 'b' }, headers: { 'if-match': selected } }),
        412,
        'precondition_failed',
      );
      expect(await readStored(api, 'notes', { _id: 'n1' })).toEqual({ _id: 'n1', text: 'a', more: 1 });
      const plain = (await api.get('/notes/n1')).headers.get('etag') as string;
      const byTag = await api.request('PATCH', '/notes/n1', {
        body: { text: 'b' },
        headers: { 'if-match': plain },
      });
      expect(byTag.status, byTag.text).toBe(200);
      const tag = byTag.headers.get('etag') as string;
      const listed = await api.request('PATCH', '/notes/n1', {
        body: { text: 'c' },
        headers: { 'if-match': `"gone", ${tag}` },
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

    it('If-Match still protects against lost updates', async () => {
      const api = await start();
      await api.seed('notes', [{ _id: 'n1', text: 'a' }]);
      const stale = (await api.get('/notes/n1')).headers.get('etag') as string;
      await api.request('PATCH', '/notes/n1', { body: { text: 'b' } });
      expectProblem(
        await api.request('PATCH', '/notes/n1', { body: { text: 'lost' }, headers: { 'if-match': stale } }),
        412,
        'precondition_failed',
      );
      // Two writers read the same tag and PATCH at once, many times over on one document:
      // exactly one of each pair writes, and the document holds that one's change.
      for (let round = 0; round < 20; round++) {
        const tag = (await api.get('/notes/n1')).headers.get('etag') as string;
        const patch = (text: string) =>
          api.request('PATCH', '/notes/n1', { body: { text }, headers: { 'if-match': tag } });
        const replies = await Promise.all([patch(`x${round}`), patch(`y${round}`)]);
        expect(replies.map((reply) => reply.status).sort()).toEqual([200, 412]);
        const [won] = replies.filter((reply) => reply.status === 200);
        const lost = replies.find((reply) => reply.status === 412);
        if (lost) expectProblem(lost, 412, 'precondition_failed');
        const current = await api.get('/notes/n1');
        expect(current.json).toEqual(won?.json);
        expect(current.headers.get('etag')).toBe(won?.headers.get('etag'));
      }
    });

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
