import type { StoreConfig } from '@store/core';
import { describe, expect, it } from 'vitest';
import { ids, type Start, startWithPeople } from './fixtures';
import { asArray, expectProblem, field } from './harness';

/** The query language end to end: field filters, operators, coercions and reserved parameters. */
export function queryTests(start: Start): void {
  const people = (config = {}) => startWithPeople(start, config);

  describe('filters: equality, coercions, operators and $query', () => {
    it.each([
      ['equality on a string', 'name=Ann', [1]],
      ['equality also matches the number', 'age=25', [2, 4]],
      ['equality also matches the numeric string', 'age=40', [3]],
      ['a repeated parameter matches any value', '_id=1&_id=3', [1, 3]],
      ['a deep property', 'author.name=Zed', [1, 3]],
      ['equality on a boolean', 'active=true', [1, 3]],
      [':bool', 'active:bool=0', [2]],
      [':number', 'age:number=25', [2, 4]],
      [':date', 'born:date=1993-02-01T00:00:00Z', [1]],
      [':date from epoch milliseconds', `born:date=${Date.UTC(1999, 6, 15)}`, [2]],
      [':id', 'ref:id=5f1d7f3e9d1b2c3a4b5c6d7e', [4]],
      [':ne', 'name:ne=Ann', [2, 3, 4]],
      [':lt compares numbers', 'age:lt=30', [2, 4]],
      [':gt', 'age:gt=30', [1]],
      [':lte', 'age:lte=25', [2, 4]],
      [':gte with :date', 'born:gte:date=1990-01-01', [1, 2]],
      [':in with one value', 'tags:in=c', [4]],
      [':in[] repeated', 'name:in[]=Ann&name:in[]=Cy', [1, 3]],
      [':nin[] repeated', 'name:nin[]=Ann&name:nin[]=Cy', [2, 4]],
      [':size', 'tags:size=2', [1]],
      [':eq', 'name:eq=bob', [2]],
      [':exists', 'ref:exists=true', [4]],
      [':contains is case-insensitive', 'name:contains=E', [4]],
      [':startsWith', 'name:startsWith=b', [2]],
      [':endsWith', 'name:endsWith=y', [3]],
      ['several operators on one field combine', 'age:gte=25&age:lt=31', [2, 4]],
      ['$query', `$query=${encodeURIComponent('{"age":{"$in":[25,31]},"tags":{"$size":1}}')}`, [2]],
      [
        '$query with Extended JSON',
        `$query=${encodeURIComponent('{"born":{"$lt":{"$date":"1990-01-01T00:00:00Z"}}}')}`,
        [3],
      ],
      ['$regex', `$regex=${encodeURIComponent('["name","^[ab]","i"]')}`, [1, 2]],
      ['flags are never filters', '$$tenant=acme', [1, 2, 3, 4]],
      [':in counts both forms of a numeric value', 'age:in[]=40&age:in[]=31', [1, 3]],
      [':nin counts both forms too', 'age:nin[]=40&age:nin[]=25', [1]],
      ['$query is ANDed with the other filters', `$query=${encodeURIComponent('{"age":25}')}&name=bob`, [2]],
      ['$regex flags', `$regex=${encodeURIComponent('["author.name","^z","i"]')}`, [1, 3]],
    ])('%s: %s', async (_, query, expected) => {
      const api = await people();
      const reply = await api.get(`/people?${query}`);
      expect(reply.status, reply.text).toBe(200);
      expect(ids(reply)).toEqual(expected);
    });
  });

  describe('reserved parameters', () => {
    it.each([
      ['$select', '$select=name&$limit=2', [{ name: 'Ann' }, { name: 'bob' }]],
      ['$select[] with _id', '$select[]=_id&$select[]=age&$limit=1', [{ _id: 1, age: 31 }]],
      ['$sort descending', '$sort=-_id&$select=_id', [{ _id: 4 }, { _id: 3 }, { _id: 2 }, { _id: 1 }]],
      [
        '$sort with $order',
        '$sort=age&$order=desc&$select=_id&$limit=3',
        [{ _id: 3 }, { _id: 1 }, { _id: 2 }],
      ],
      ['$sort ties broken by _id', '$sort=age&$select=_id&$limit=2', [{ _id: 2 }, { _id: 4 }]],
      [
        'several $sort keys with $order[]',
        '$sort=age&$sort=name&$order[]=desc&$order[]=asc&$select=_id',
        [{ _id: 3 }, { _id: 1 }, { _id: 4 }, { _id: 2 }],
      ],
      ['$page and $limit', '$limit=2&$page=1&$select=_id', [{ _id: 3 }, { _id: 4 }]],
      ['a $page past the end', '$limit=2&$page=5', []],
    ])('%s', async (_, query, expected) => {
      const api = await people();
      expect((await api.get(`/people?${query}`)).json).toEqual(expected);
    });

    it('pages by 10 by default and clamps $limit to maxLimit', async () => {
      const api = await start({ maxLimit: 12 });
      await api.seed(
        'nums',
        Array.from({ length: 15 }, (_, i) => ({ _id: i })),
      );
      expect((await api.get('/nums')).json).toHaveLength(10);
      expect((await api.get('/nums?$limit=100')).json).toHaveLength(12);
    });

    it('honours defaultLimit', async () => {
      const api = await start({ defaultLimit: 3 });
      await api.seed(
        'nums',
        Array.from({ length: 5 }, (_, i) => ({ _id: i })),
      );
      expect((await api.get('/nums')).json).toHaveLength(3);
    });

    it('$count=1 answers the count of the whole filter, ignoring page, limit, sort and select', async () => {
      const api = await people();
      expect((await api.get('/people?$count=1')).json).toEqual({ count: 4 });
      const reply = await api.get('/people?age=25&$count=1&$limit=1&$page=3&$sort=name&$select=name');
      expect(reply.json).toEqual({ count: 2 });
    });
  });

  describe('$search', () => {
    it('searches the declared fields with a text index', async () => {
      const api = await start({ resources: { posts: { search: ['title', 'body'] } } });
      await api.seed('posts', [
        { _id: 1, title: 'Gardening tips', body: 'tomatoes' },
        { _id: 2, title: 'Cooking', body: 'tomato soup and bread' },
        { _id: 3, title: 'Travel', body: 'trains' },
      ]);
      expect(ids(await api.get('/posts?$search=bread'))).toEqual([2]);
      expect((await api.get('/posts?$search=trains&$count=1')).json).toEqual({ count: 1 });
    });

    it('answers 400 invalid_query on a resource without searchable fields', async () => {
      const api = await people();
      expectProblem(await api.get('/people?$search=ann'), 400, 'invalid_query');
    });
  });

  describe('geo', () => {
    const paris = [2.3522, 48.8566];
    async function places(config: StoreConfig = { resources: { places: { geo: ['loc'] } } }) {
      const api = await start(config);
      await api.seed('places', [
        { _id: 'louvre', loc: { type: 'Point', coordinates: [2.3376, 48.8606] } },
        { _id: 'versailles', loc: { type: 'Point', coordinates: [2.1204, 48.8049] } },
        { _id: 'lyon', loc: { type: 'Point', coordinates: [4.8357, 45.764] } },
      ]);
      return api;
    }

    it('geo:near answers the nearest first within the distance', async () => {
      const api = await places();
      const near = encodeURIComponent(JSON.stringify([...paris, 0, 30_000]));
      expect(ids(await api.get(`/places?loc:geo:near=${near}`))).toEqual(['louvre', 'versailles']);
    });

    it('answers 400 invalid_query for geo:near on a field not declared in resources.<name>.geo', async () => {
      const api = await places({});
      const near = encodeURIComponent(JSON.stringify([...paris, 0, 30_000]));
      expectProblem(await api.get(`/places?loc:geo:near=${near}`), 400, 'invalid_query');
    });

    it('counts a geo:near query', async () => {
      const api = await places();
      const near = (min: number, max: number) => encodeURIComponent(JSON.stringify([...paris, min, max]));
      expect((await api.get(`/places?loc:geo:near=${near(0, 30_000)}&$count=1`)).json).toEqual({ count: 2 });
      expect((await api.get(`/places?loc:geo:near=${near(5_000, 30_000)}&$count=1`)).json).toEqual({
        count: 1,
      });
    });

    it('counts what the list answers under geo:near, with or without a maximum distance', async () => {
      const api = await places();
      await api.seed('places', [{ _id: 'nowhere', loc: null }, { _id: 'unplaced' }]);
      for (const bounds of [[], [0], [5_000], [0, 30_000], [5_000, 30_000], [null, 400_000]]) {
        const near = `loc:geo:near=${encodeURIComponent(JSON.stringify([...paris, ...bounds]))}`;
        const list = await api.get(`/places?${near}&$limit=100`);
        expect(list.status, list.text).toBe(200);
        const count = await api.get(`/places?${near}&$count=1`);
        expect(count.json, `${near}: ${list.text}`).toEqual({ count: asArray(list.json).length });
      }
    });

    it('reads a legacy $nearSphere [lng, lat] with radians as both engines do, and counts it', async () => {
      const api = await places();
      const radians = 30_000 / 6_378_100;
      const query = (extra: string) =>
        `/places?$query=${encodeURIComponent(JSON.stringify({ loc: { $nearSphere: paris, $maxDistance: radians } }))}${extra}`;
      expect(ids(await api.get(query('')))).toEqual(['louvre', 'versailles']);
      expect((await api.get(query('&$count=1'))).json).toEqual({ count: 2 });
    });

    it('geo:ins:polygon answers the documents that intersect', async () => {
      const api = await places();
      const box = [
        [
          [4.5, 45.5],
          [5, 45.5],
          [5, 46],
          [4.5, 46],
          [4.5, 45.5],
        ],
      ];
      const reply = await api.get(`/places?loc:geo:ins:polygon=${encodeURIComponent(JSON.stringify(box))}`);
      expect(ids(reply)).toEqual(['lyon']);
    });

    it('geo:win:polygon answers the documents within', async () => {
      const api = await places();
      const box = [
        [
          [2, 48.5],
          [3, 48.5],
          [3, 49],
          [2, 49],
          [2, 48.5],
        ],
      ];
      expect(
        ids(await api.get(`/places?loc:geo:win:polygon=${encodeURIComponent(JSON.stringify(box))}`)),
      ).toEqual(['louvre', 'versailles']);
    });
  });

  describe('refused because MongoDB refuses it, on every engine', () => {
    const near = `loc:geo:near=${encodeURIComponent('[2.35,48.85,0,1000]')}`;
    const enc = encodeURIComponent;
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`).join(',');

    it.each([
      ['$search with geo:near', `${near}&$search=cafe`, '$search'],
      [
        '$search with a $query $nearSphere',
        `$search=cafe&$query=${enc('{"loc":{"$nearSphere":[2.35,48.85]}}')}`,
        '$search',
      ],
      ['a second operator on the geo:near field', `${near}&loc:exists=true`, 'loc:exists'],
      ['a $query condition on the geo:near field', `${near}&$query=${enc('{"loc":{"$ne":null}}')}`, '$query'],
      ['a legacy $near, which needs a 2d index', `$query=${enc('{"loc":{"$near":[2.35,48.85]}}')}`, '$near'],
      [
        '$maxDistance beside a GeoJSON $nearSphere',
        `$query=${enc('{"loc":{"$nearSphere":{"$geometry":{"type":"Point","coordinates":[2.35,48.85]}},"$maxDistance":5}}')}`,
        '$maxDistance',
      ],
      ['more than 32 sort keys', `$sort=${keys(32)}`, '32'],
    ])('%s', async (_, query, named) => {
      const api = await start({ resources: { places: { geo: ['loc'], search: ['name'] } } });
      await api.seed('places', [
        { _id: 1, name: 'cafe', loc: { type: 'Point', coordinates: [2.35, 48.85] } },
      ]);
      const reply = await api.get(`/places?${query}`);
      expectProblem(reply, 400, 'invalid_query');
      expect(field(reply.json, 'detail')).toContain(named);
    });

    it('accepts 31 sort keys (the store adds _id)', async () => {
      const api = await people();
      expect((await api.get(`/people?$sort=${keys(31)}`)).status).toBe(200);
    });

    const regex = (pattern: string) => `$regex=${enc(JSON.stringify(['name', pattern]))}`;
    const raw = (condition: unknown, field = 'name') =>
      `$query=${enc(JSON.stringify({ [field]: condition }))}`;
    const bson = (pattern: string) => ({ $regularExpression: { pattern, options: '' } });
    it.each([
      ['\\u0041 (PCRE2 error 51091)', regex('\\u0041nn'), '\\u'],
      ['\\A', regex('\\AAnn'), '\\A'],
      ['\\z', regex('Ann\\z'), '\\z'],
      ['\\h', regex('A\\hnn'), '\\h'],
      ['\\p{L}', regex('\\p{L}'), '\\p'],
      ['\\Q...\\E', regex('\\QAnn\\E'), '\\Q'],
      ['inline flags', regex('(?i)ann'), '(?i)'],
      ['an escaped letter PCRE refuses', regex('\\yAnn'), '\\y'],
      ['$regex in $query', raw({ $regex: '\\u0041nn' }), '\\u'],
      ['$not with a regex', raw({ $not: { $regex: '\\Z' } }), '\\Z'],
      ['a regex member of $in', raw({ $in: [bson('\\Kx')] }), '\\K'],
      ['a regex member of $nin', raw({ $nin: [bson('(?i)x')] }), '(?i)'],
      ['a regex member of $all', raw({ $all: [bson('\\x{61}')] }, 'tags'), '\\x'],
    ])('regex syntax PCRE and JavaScript read differently: %s', async (_, query, construct) => {
      const api = await people();
      const reply = await api.get(`/people?${query}`);
      expectProblem(reply, 400, 'invalid_query');
      expect(field(reply.json, 'detail')).toContain(`in the regex, ${construct}`);
    });

    it.each([
      ['a possessive quantifier', regex('An++'), '++ is a possessive quantifier'],
      ['an atomic group', regex('(?>Ann)'), '(?> is an atomic group'],
      ['a backreference', regex('(n)\\1'), '\\1 is a backreference'],
      ['a lookahead', regex('A(?=nn)'), '(?= is a lookahead'],
      ['a lookbehind in $query', raw({ $regex: '(?<=A)nn' }), '(?<= is a lookbehind'],
      ['a negative lookahead under $not', raw({ $not: { $regex: 'A(?!x)' } }), '(?! is a lookahead'],
      ['a backreference in a regex member of $in', raw({ $in: [bson('(A)\\1')] }), '\\1 is a backreference'],
    ])('regex RE2 cannot run in linear time: %s', async (_, query, construct) => {
      const api = await people();
      const reply = await api.get(`/people?${query}`);
      expectProblem(reply, 400, 'unsafe_regex');
      expect(field(reply.json, 'detail')).toContain(`in the regex, ${construct}`);
    });

    it.each([
      ['$ at the end, not before a final newline', ['note', 'b$'], [1, 3, 4, 5, 6]],
      ['. takes \\r but not \\n', ['note', 'a.b'], [3, 4, 5, 6]],
      ['\\s is ASCII white space (not U+00A0)', ['note', 'a\\sb'], [2, 4, 6]],
      ['^ and $ with m see only \\n', ['note', '^b$', 'm'], [2]],
    ])('regex rewritten so both engines match alike: %s', async (_, regex, expected) => {
      const api = await start();
      await api.seed('notes', [
        { _id: 1, note: 'ab' },
        { _id: 2, note: 'a\nb\n' },
        { _id: 3, note: 'a-b' },
        { _id: 4, note: 'a b' },
        { _id: 5, note: 'a\u00a0b' },
        { _id: 6, note: 'a\rb' },
      ]);
      const reply = await api.get(`/notes?$regex=${enc(JSON.stringify(regex))}`);
      expect(reply.status, reply.text).toBe(200);
      expect(ids(reply)).toEqual(expected);
    });
  });

  describe('a regex cannot stall the server (linear-time matching)', () => {
    const enc = encodeURIComponent;
    const evil = `${'a'.repeat(30)}!`;
    const bson = (pattern: string) => ({ $regularExpression: { pattern, options: '' } });
    const raw = (condition: unknown, field = 'name') =>
      `$query=${enc(JSON.stringify({ [field]: condition }))}`;
    const stall = async () => {
      const api = await start();
      await api.seed('people', [
        { _id: 1, name: evil, tags: [evil] },
        { _id: 2, name: 'b', tags: ['b'] },
        { _id: 3, name: '1111111111111111111111111111111!', tags: [] },
      ]);
      return api;
    };

    // Over these 30 characters a backtracking engine runs for minutes; RE2 answers at once.
    it.each([
      ['$regex (a|a)*$', `$regex=${enc(JSON.stringify(['name', '^(a|a)*$', '']))}`, []],
      ['$regex (w|d)+$', `$regex=${enc(JSON.stringify(['name', '(\\w|\\d)+$']))}`, [2]],
      ['$regex .*.*=', `$regex=${enc(JSON.stringify(['name', '.*.*=']))}`, []],
      ['$regex a*a*b', `$regex=${enc(JSON.stringify(['name', 'a*a*b']))}`, [2]],
      ['$query $regex', raw({ $regex: '^(a|a)*$' }), []],
      ['$query $not', raw({ $not: { $regex: '^(a|a)*$' } }), [1, 2, 3]],
      ['$query $in', raw({ $in: [bson('^(a|a)*$'), 'b'] }), [2]],
      ['$query $nin', raw({ $nin: [bson('^(\\w|\\d)+$')] }), [1, 3]],
      ['$query $all', raw({ $all: [bson('^(a|a)*$')] }, 'tags'), []],
    ])(
      'an adversarial regex answers correctly: %s',
      async (_, query, expected) => {
        const api = await stall();
        const reply = await api.get(`/people?${query}&$sort=_id`);
        expect(reply.status, reply.text).toBe(200);
        expect(ids(reply)).toEqual(expected);
      },
      10_000,
    );

    it('leaves a concurrent plain request unaffected', async () => {
      const api = await stall();
      const adversarial = api.get(`/people?$regex=${enc(JSON.stringify(['name', '(a|a)*$', '']))}&$sort=_id`);
      const plain = api.get('/people?name=b');
      const [slow, quick] = await Promise.all([adversarial, plain]);
      expect(quick.status, quick.text).toBe(200);
      expect(ids(quick)).toEqual([2]);
      expect(slow.status, slow.text).toBe(200);
      expect(ids(slow)).toEqual([1, 2, 3]);
    }, 10_000);
  });
}
