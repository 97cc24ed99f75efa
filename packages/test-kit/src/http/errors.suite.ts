import type { StoreCollection, StoreDb } from '@store/common';
import { describe, expect, it, vi } from 'vitest';
import { type Start, startWithPeople } from './fixtures';
import { expectProblem } from './harness';

/** The query errors, and 500 `internal` for anything unexpected. */
export function errorTests(start: Start): void {
  const people = () => startWithPeople(start);

  describe('query errors', () => {
    it.each([
      ['an unknown reserved parameter', '$foo=1', 'unknown_parameter'],
      ['a parameter parsed as an object', 'name[$ne]=x', 'invalid_query'],
      ['a field name over 200 characters', `${'a'.repeat(201)}=1`, 'invalid_query'],
      ['an empty field segment', 'a..b=1', 'invalid_query'],
      ['a field segment starting with $', 'a.$b=1', 'invalid_query'],
      ['an unknown operator', 'age:around=3', 'invalid_query'],
      ['a bad :bool', 'active:bool=maybe', 'invalid_query'],
      ['a bad :date', 'born:date=someday', 'invalid_query'],
      ['a bad :id', 'ref:id=xyz', 'invalid_query'],
      ['a bad :number', 'age:number=ten', 'invalid_query'],
      ['a negative :size', 'tags:size=-1', 'invalid_query'],
      ['$limit=0', '$limit=0', 'invalid_query'],
      ['a negative $page', '$page=-1', 'invalid_query'],
      ['$order other than asc|desc', '$sort=a&$order=up', 'invalid_query'],
      ['$query that is not JSON', '$query=nope', 'invalid_query'],
      ['$where inside $query', `$query=${encodeURIComponent('{"$where":"sleep(1)"}')}`, 'forbidden_operator'],
      [
        '$expr inside $query',
        `$query=${encodeURIComponent('{"$expr":{"$eq":[1,1]}}')}`,
        'forbidden_operator',
      ],
      ['a nested-quantifier $regex', `$regex=${encodeURIComponent('["name","(a+)+$",""]')}`, 'unsafe_regex'],
      [
        'a regex over 256 characters',
        `$regex=${encodeURIComponent(JSON.stringify(['name', 'a'.repeat(300), '']))}`,
        'unsafe_regex',
      ],
      [
        'an open polygon ring',
        `loc:geo:win:polygon=${encodeURIComponent('[[[0,0],[1,0],[1,1],[0,1]]]')}`,
        'invalid_query',
      ],
    ])('%s answers 400 %s', async (_, query, code) => {
      const api = await people();
      expectProblem(await api.get(`/people?${query}`), 400, code);
    });

    it('checks the query string on every route', async () => {
      const api = await people();
      expectProblem(await api.get('/people/1?$foo=1'), 400, 'unknown_parameter');
      expectProblem(await api.request('DELETE', '/people/1?$foo=1'), 400, 'unknown_parameter');
      expect((await api.get('/people/1')).status).toBe(200);
    });
  });

  describe('unexpected failures', () => {
    it('answer 500 internal without internals, logging the cause', async () => {
      const logger = { error: vi.fn(), warn: vi.fn() };
      const api = await start();
      const find: StoreCollection['find'] = () => ({
        toArray: () => Promise.reject(new Error('driver exploded at 10.1.2.3')),
      });
      const failing = new Proxy(api.db.collection('boom'), {
        get: (target, key) => (key === 'find' ? find : Reflect.get(target, key)),
      });
      const db: StoreDb = { collection: (name) => (name === 'boom' ? failing : api.db.collection(name)) };
      const broken = await start({ db, logger });
      const reply = await broken.get('/boom');
      expectProblem(reply, 500, 'internal');
      expect(reply.text).not.toContain('10.1.2.3');
      expect(reply.text).not.toContain('exploded');
      expect(logger.error).toHaveBeenCalledWith(
        expect.any(String),
        expect.objectContaining({ message: 'driver exploded at 10.1.2.3' }),
      );
    });
  });
}
