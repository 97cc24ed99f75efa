import { describe, expect, it } from 'vitest';
import { listed, startAccess } from './access-fixtures';
import { ids, type Start, startWithPeople } from './fixtures';
import { type Api, expectProblem, type ReplyJson } from './harness';

/** The URLs of a `Link` header (RFC 8288), by relation. */
function links(reply: { headers: Headers }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (reply.headers.get('link') ?? '').split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>;\s*rel="([^"]+)"$/.exec(part.trim());
    if (match) out[match[2] as string] = match[1] as string;
  }
  return out;
}

/** A link's URL as a path for the client (the part from `/<resource>` on). */
const pathOf = (url: string, resource: string) => url.slice(url.indexOf(`/${resource}`));

/** Every page from `first` on, following `rel="next"`: the ids in order, and how many pages. */
async function follow(
  api: Api,
  first: string,
  resource: string,
): Promise<{ ids: ReplyJson[]; pages: number }> {
  const seen: ReplyJson[] = [];
  let path: string | undefined = first;
  let pages = 0;
  while (path !== undefined) {
    const reply = await api.get(path);
    expect(reply.status, reply.text).toBe(200);
    seen.push(...ids(reply));
    pages++;
    if (pages > 500) throw new Error('paging does not end');
    const next = links(reply).next;
    path = next === undefined ? undefined : pathOf(next, resource);
  }
  return { ids: seen, pages };
}

/**
 * Values of many kinds a sort meets, null and missing included, several per kind (ties broken by
 * `_id`); sent as Extended JSON, so every engine and driver stores them with its own classes.
 */
const MIXED: Record<string, unknown>[] = [
  { _id: 1, v: 5 },
  { _id: 2, v: 'b' },
  { _id: 3 },
  { _id: 4, v: null },
  { _id: 5, v: 2.5 },
  { _id: 6, v: true },
  { _id: 7, v: { $date: '2020-01-01T00:00:00Z' } },
  { _id: 8, v: 'a' },
  { _id: 9, v: { x: 1 } },
  { _id: 10, v: { $oid: '5f1d7f3e9d1b2c3a4b5c6d7e' } },
  { _id: 11, v: false },
  { _id: 12, v: 5 },
  { _id: 13 },
  { _id: 14, v: { $date: '1990-01-01T00:00:00Z' } },
  { _id: 15, v: 'b', w: 2 },
  { _id: 16, v: { $oid: '000000000000000000000001' } },
  { _id: 'k', v: -1 },
  { _id: { $oid: '5f1d7f3e9d1b2c3a4b5c6d70' }, v: 'a' },
];

/** `$total=1` with `X-Total-Count` and `Link`, cursor paging with `$after`. */
export function pagingTests(start: Start): void {
  describe('$total=1', () => {
    it('adds X-Total-Count and first/next/last links on the first page, no prev', async () => {
      const api = await startWithPeople(start);
      const reply = await api.get('/people?name:ne=nobody&$limit=3&$total=1');
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('x-total-count')).toBe('4');
      const rel = links(reply);
      expect(Object.keys(rel).sort()).toEqual(['first', 'last', 'next']);
      expect(rel.first).toMatch(/\/people\?name:ne=nobody&\$limit=3&\$total=1$/);
      expect(rel.last).toMatch(/\/people\?name:ne=nobody&\$limit=3&\$total=1&\$page=1$/);
      expect(rel.next).toMatch(/\/people\?name:ne=nobody&\$limit=3&\$total=1&\$after=[\w-]+$/);
    });

    it('has prev and no next on the last page; every link answers its page', async () => {
      const api = await startWithPeople(start);
      const reply = await api.get('/people?$limit=3&$total=1&$page=1');
      expect(ids(reply)).toEqual([4]);
      expect(reply.headers.get('x-total-count')).toBe('4');
      const rel = links(reply);
      expect(Object.keys(rel).sort()).toEqual(['first', 'last', 'prev']);
      expect(ids(await api.get(pathOf(rel.prev as string, 'people')))).toEqual([1, 2, 3]);
      expect(ids(await api.get(pathOf(rel.first as string, 'people')))).toEqual([1, 2, 3]);
      expect(ids(await api.get(pathOf(rel.last as string, 'people')))).toEqual([4]);
    });

    it('has prev, next and last in the middle, and no next when the last page is exactly full', async () => {
      const api = await startWithPeople(start);
      const middle = await api.get('/people?$limit=1&$page=2&$total=1');
      expect(Object.keys(links(middle)).sort()).toEqual(['first', 'last', 'next', 'prev']);
      expect(ids(await api.get(pathOf(links(middle).next as string, 'people')))).toEqual([4]);
      const last = await api.get('/people?$limit=2&$page=1&$total=1');
      expect(ids(last)).toEqual([3, 4]);
      expect(links(last).next).toBeUndefined();
    });

    it('counts the whole filter, not the page, and answers 0 with only first and last on no match', async () => {
      const api = await startWithPeople(start);
      const some = await api.get('/people?age=25&$limit=1&$total=1');
      expect(some.headers.get('x-total-count')).toBe('2');
      const none = await api.get('/people?name=nobody&$total=1');
      expect(none.headers.get('x-total-count')).toBe('0');
      expect(Object.keys(links(none)).sort()).toEqual(['first', 'last']);
    });

    it('builds links under the configured baseUrl', async () => {
      const api = await startWithPeople(start, { baseUrl: 'https://api.example.test/v1' });
      const reply = await api.get('/people?$limit=2&$total=1');
      expect(links(reply).last).toBe('https://api.example.test/v1/people?$limit=2&$total=1&$page=1');
    });

    it('reads a react-admin style list: range by page, total from X-Total-Count', async () => {
      const api = await startWithPeople(start);
      const reply = await api.get('/people?$sort=name&$order=asc&$page=0&$limit=2&$total=1');
      const total = Number(reply.headers.get('x-total-count'));
      // Binary order: capitals first.
      expect({ data: ids(reply), total }).toEqual({ data: [1, 3], total: 4 });
    });

    it('rejects a $total that is not a boolean', async () => {
      const api = await startWithPeople(start);
      expectProblem(await api.get('/people?$total=yes'), 400, 'invalid_query');
    });
  });

  describe('cursor paging ($after)', () => {
    it('gives a full page a next link with a cursor, and the last partial page none', async () => {
      const api = await startWithPeople(start);
      const first = await api.get('/people?$limit=3');
      expect(links(first).next).toMatch(/\/people\?\$limit=3&\$after=[\w-]+$/);
      const second = await api.get(pathOf(links(first).next as string, 'people'));
      expect(ids(second)).toEqual([4]);
      expect(second.headers.get('link')).toBeNull();
    });

    it.each([
      ['the default _id order', ''],
      ['a descending key', '$sort=-age'],
      ['a nested key and a date', '$sort=author.name&$sort=-born'],
      ['a key most documents lack', '$sort=ref'],
      ['a key most documents lack, descending', '$sort=-ref'],
    ])('pages the people by one in %s exactly as one big page orders them', async (_, sort) => {
      const api = await startWithPeople(start);
      const whole = ids(await api.get(`/people?${sort}&$limit=100`));
      expect((await follow(api, `/people?${sort}&$limit=1`, 'people')).ids).toEqual(whole);
    });

    it.each([
      ['ascending', '$sort=v'],
      ['descending', '$sort=-v'],
      ['two keys', '$sort=-w&$sort=v'],
    ])('follows the BSON order of mixed types, null and missing values (%s)', async (_, sort) => {
      const api = await start();
      await api.seed('mixed', MIXED);
      const whole = ids(await api.get(`/mixed?${sort}&$limit=100`));
      expect(whole).toHaveLength(MIXED.length);
      for (const limit of [1, 2, 5]) {
        const paged = await follow(api, `/mixed?${sort}&$limit=${limit}`, 'mixed');
        expect(paged.ids).toEqual(whole);
      }
    });

    it('keeps $select and the other filters on every page, and strips the sort key it did not select', async () => {
      const api = await startWithPeople(start);
      const first = await api.get('/people?age:ne=40&$select=name&$sort=-age&$limit=2');
      expect(first.json).toEqual([{ name: 'Ann' }, { name: 'bob' }]);
      const next = await api.get(pathOf(links(first).next as string, 'people'));
      expect(next.json).toEqual([{ name: 'Dee' }]);
    });

    it('never repeats or skips a document while another client inserts and deletes', async () => {
      const api = await start();
      const steady = Array.from({ length: 40 }, (_, i) => ({ _id: i * 10, score: i % 7 }));
      await api.seed('items', steady);
      let writing = true;
      const writer = async () => {
        for (let i = 0; writing && i < 200; i++) {
          const _id = i * 10 + 5;
          expect((await api.post('/items', { _id, score: i % 5 })).status).toBe(201);
          if (i >= 3) expect((await api.request('DELETE', `/items/${_id - 30}`)).status).toBe(204);
        }
      };
      const pager = async (sort: string) => {
        try {
          return (await follow(api, `/items?${sort}&$limit=4`, 'items')).ids;
        } finally {
          writing = false;
        }
      };
      const [byId, byScore] = await Promise.all([pager(''), pager('$sort=-score'), writer()]);
      for (const seen of [byId, byScore] as ReplyJson[][]) {
        expect(new Set(seen).size, 'no document twice').toBe(seen.length);
        const steadyIds = steady.map((doc) => doc._id);
        expect(
          steadyIds.filter((id) => !seen.includes(id)),
          'no steady document skipped',
        ).toEqual([]);
      }
    });

    it.each([
      ['corrupt', '$after=not*base64'],
      ['forged', `$after=${Buffer.from('{"k":[["_id",1]],"v":[{"$where":"1"}]}').toString('base64url')}`],
      ['truncated', '$after=eyJrIjpbWyJfaWQiLDFdXSwidiI6WzFd'],
    ])('answers 400 invalid_cursor to a %s cursor', async (_, query) => {
      const api = await startWithPeople(start);
      expectProblem(await api.get(`/people?${query}`), 400, 'invalid_cursor');
    });

    it('answers 400 to a cursor under another $sort, and to $after with $page', async () => {
      const api = await startWithPeople(start);
      const next = links(await api.get('/people?$sort=name&$limit=1')).next as string;
      const cursor = next.slice(next.indexOf('$after='));
      expectProblem(await api.get(`/people?$sort=-name&${cursor}`), 400, 'invalid_cursor');
      expectProblem(await api.get(`/people?$sort=name&$page=1&${cursor}`), 400, 'invalid_query');
    });
  });

  describe('access rules', () => {
    it('an owner never counts or pages another user\u2019s documents', async () => {
      const { send } = await startAccess(start);
      const counted = await send('ada', 'GET', '/notes?$total=1&$limit=1');
      expect(listed(counted)).toEqual(['a1']);
      expect(counted.headers.get('x-total-count')).toBe('1');
      expect(links(counted).next).toBeUndefined();
      const bobsFirst = await send('bob', 'GET', '/notes?$limit=1&$sort=-title');
      const cursor = links(bobsFirst).next;
      // A cursor from bob's page only says where to start: ada still reads only her notes.
      const fromBob = cursor === undefined ? '/notes' : pathOf(cursor, 'notes');
      const reply = await send('ada', 'GET', fromBob);
      expect(reply.status, reply.text).toBe(200);
      expect((listed(reply) as ReplyJson[]).every((id) => id === 'a1')).toBe(true);
      const forged = Buffer.from('{"k":[["_id",1]],"v":[null]}').toString('base64url');
      expect(listed(await send('ada', 'GET', `/notes?$after=${forged}`))).toEqual(['a1']);
    });
  });
}
