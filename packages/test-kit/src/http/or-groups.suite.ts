import { describe, expect, it } from 'vitest';
import { listed, startAccess } from './access-fixtures';
import { ids, type Start, startWithPeople } from './fixtures';
import { expectProblem } from './harness';

/** OR groups in the flat query string, and `$regex` without flags. */
export function orGroupTests(start: Start): void {
  describe('OR groups ($or[n][field])', () => {
    it.each([
      ['two groups of one filter', '$or[0][name]=Ann&$or[1][name]=Cy', [1, 3]],
      ['a group ANDs its filters', '$or[0][age]=25&$or[0][name:startsWith]=d&$or[1][_id]=1', [1, 4]],
      ['groups are ANDed with the other filters', 'active=true&$or[0][age:gt]=30&$or[1][name]=bob', [1]],
      [
        'operators, coercions and repeated values in groups',
        '$or[0][age:number]=25&$or[1][tags:in][]=c',
        [2, 4],
      ],
      ['percent-encoded brackets', '%24or%5B0%5D%5Bname%5D=bob&%24or%5B1%5D%5Bname%5D=Dee', [2, 4]],
      ['one group is a plain AND', '$or[0][name:contains]=e', [4]],
    ])('%s: %s', async (_, query, expected) => {
      const api = await startWithPeople(start);
      const reply = await api.get(`/people?${query}`);
      expect(reply.status, reply.text).toBe(200);
      expect(ids(reply)).toEqual(expected);
    });

    it.each([
      ['a non-numeric group index', '$or[x][name]=Ann'],
      ['a group without a field', '$or[0]=Ann'],
      ['an empty field', '$or[0][]=Ann'],
      ['more than 20 groups', Array.from({ length: 21 }, (_, i) => `$or[${i}][name]=n${i}`).join('&')],
      ['an unknown operator in a group', '$or[0][name:like]=Ann'],
      ['a nested group', '$or[0][$or][1][name]=Ann'],
    ])('answers 400 invalid_query to %s', async (_, query) => {
      const api = await startWithPeople(start);
      expectProblem(await api.get(`/people?${query}`), 400, 'invalid_query');
    });

    it('refuses a hidden field inside a group as at the top level', async () => {
      const api = await startWithPeople(start, { resources: { people: { hidden: ['age'] } } });
      expectProblem(await api.get('/people?age=25'), 400, 'invalid_query');
      expectProblem(await api.get('/people?$or[0][name]=Ann&$or[1][age]=25'), 400, 'invalid_query');
    });

    it('keeps the access rule outside the groups', async () => {
      const { send } = await startAccess(start);
      const reply = await send('ada', 'GET', '/notes?$or[0][title]=bob&$or[1][title]=ada&$total=1');
      expect(listed(reply)).toEqual(['a1']);
      expect(reply.headers.get('x-total-count')).toBe('1');
    });
  });

  describe('$regex flags', () => {
    it('matches case-insensitively without flags', async () => {
      const api = await start();
      await api.seed('people', [
        { _id: 1, name: 'PaquiRRis' },
        { _id: 2, name: 'Other' },
      ]);
      const reply = await api.get(`/people?$regex=${encodeURIComponent('["name","paquirris"]')}`);
      expect(reply.status, reply.text).toBe(200);
      expect(ids(reply)).toEqual([1]);
    });

    it('matches case-sensitively with "" as flags', async () => {
      const api = await start();
      await api.seed('people', [{ _id: 1, name: 'PaquiRRis' }]);
      const sensitive = await api.get(`/people?$regex=${encodeURIComponent('["name","paquirris",""]')}`);
      expect(ids(sensitive)).toEqual([]);
      const exact = await api.get(`/people?$regex=${encodeURIComponent('["name","PaquiRRis",""]')}`);
      expect(ids(exact)).toEqual([1]);
    });
  });
}
