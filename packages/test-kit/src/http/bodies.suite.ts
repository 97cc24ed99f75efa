import { describe, expect, it } from 'vitest';
import type { Start } from './fixtures';
import { asString, expectProblem, field } from './harness';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Request bodies, Extended JSON, timestamps and the response format. */
export function bodyTests(start: Start): void {
  describe('request bodies', () => {
    it.each([
      ['text/plain', { 'content-type': 'text/plain' }],
      ['a form', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['JSON in another charset', { 'content-type': 'application/json; charset=latin1' }],
    ])('answer 415 unsupported_media_type for %s', async (_, headers) => {
      const api = await start();
      expectProblem(
        await api.request('POST', '/items', { raw: '{"a":1}', headers }),
        415,
        'unsupported_media_type',
      );
      expect((await api.get('/items')).json).toEqual([]);
    });

    it('answer 415 unsupported_media_type without a content-type', async () => {
      const api = await start();
      const reply = await api.request('POST', '/items', { raw: new TextEncoder().encode('{"a":1}') });
      expectProblem(reply, 415, 'unsupported_media_type');
    });

    it.each(['application/json; charset=utf-8', 'application/merge-patch+json'])(
      'accept %s',
      async (type) => {
        const api = await start();
        const reply = await api.request('POST', '/items', {
          raw: '{"a":1}',
          headers: { 'content-type': type },
        });
        expect(reply.status).toBe(201);
      },
    );

    it('answer 413 payload_too_large past bodyLimit, on an intact connection', async () => {
      const api = await start({ bodyLimit: '1kb' });
      expectProblem(await api.post('/items', { text: 'x'.repeat(2000) }), 413, 'payload_too_large');
      expect((await api.post('/items', { text: 'x'.repeat(900) })).status).toBe(201);
    });

    it.each([
      ['malformed JSON', '{"a":'],
      ['an empty body', ''],
      ['a $ key', '{"$where":"1"}'],
      ['a nested $ key', '{"a":{"$gt":1}}'],
      ['a key containing NUL', '{"a\\u0000":1}'],
      ['a __proto__ key', '{"__proto__":{"polluted":true}}'],
      ['a constructor key', '{"constructor":{"prototype":{"polluted":true}}}'],
      ['a dotted key', '{"a.b":1}'],
      ['nesting deeper than 32 levels', `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`],
      ['an invalid $date', '{"at":{"$date":"yesterday"}}'],
      ['an invalid $oid', '{"ref":{"$oid":"123"}}'],
    ])('answer 400 invalid_body for %s', async (_, raw) => {
      const api = await start();
      const reply = await api.request('POST', '/items', {
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(reply, 400, 'invalid_body');
      expect((await api.get('/items')).json).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it.each([
      ['a $ key', '{"$set":{"a":1}}'],
      ['a __proto__ key', '{"__proto__":{"polluted":true}}'],
      ['a nested constructor key', '{"a":{"constructor":{"prototype":{"polluted":true}}}}'],
    ])('apply the same rules to a body a host body parser read: %s', async (_, raw) => {
      const api = await start({}, { bodyParser: true });
      const reply = await api.request('POST', '/items', {
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(reply, 400, 'invalid_body');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('accept a body a host body parser read, with Extended JSON', async () => {
      const api = await start({}, { bodyParser: true });
      const reply = await api.post('/items', { _id: 1, at: { $date: '2024-05-06T07:08:09Z' } });
      expect(reply.json).toEqual({ _id: 1, at: '2024-05-06T07:08:09.000Z' });
      expect((await api.get('/items?at:date=2024-05-06T07:08:09Z')).json).toHaveLength(1);
    });

    it('read {"$date"} as a Date and {"$oid"} as an ObjectId, answered as strings', async () => {
      const api = await start();
      const hex = '65a1b2c3d4e5f60718293a4b';
      const reply = await api.post('/items', {
        _id: 1,
        at: { $date: '2024-01-02T03:04:05Z' },
        ref: { $oid: hex },
      });
      expect(reply.json).toEqual({ _id: 1, at: '2024-01-02T03:04:05.000Z', ref: hex });
      const stored = await api.db.collection('items').findOne({ _id: 1 });
      expect(stored?.at).toBeInstanceOf(Date);
      expect(stored?.ref?.constructor?.name).toBe('ObjectId');
      expect((await api.get('/items?at:date=2024-01-02T03:04:05Z')).json).toHaveLength(1);
      expect((await api.get(`/items?ref:id=${hex}`)).json).toHaveLength(1);
      expect((await api.get(`/items?ref=${hex}`)).json).toHaveLength(0);
    });
  });

  describe('geo fields (resources.<name>.geo): what MongoDB cannot index is a 400 on every engine', () => {
    const config = { resources: { places: { geo: ['loc', 'stops.at'] } } };
    const point = { type: 'Point', coordinates: [2.35, 48.85] };

    it.each([
      ['a string', 'Paris'],
      ['a Point out of range', { type: 'Point', coordinates: [200, 48.85] }],
      ['an unknown type', { type: 'Circle', coordinates: [0, 0] }],
      [
        'an open ring',
        {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 1],
            ],
          ],
        },
      ],
      [
        'a ring of 3 positions',
        {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        },
      ],
      ['a legacy pair out of range', [2.35, 95]],
      ['an empty GeometryCollection', { type: 'GeometryCollection', geometries: [] }],
    ])('POST refuses %s, naming the field', async (_, loc) => {
      const api = await start(config);
      const reply = await api.post('/places', { _id: 1, loc });
      expectProblem(reply, 400, 'invalid_body');
      expect(field(reply.json, 'detail')).toMatch(/^body\.loc: .*resources\.places\.geo/);
      expect((await api.get('/places')).json).toEqual([]);
    });

    it.each([
      ['a Point', point],
      [
        'a LineString',
        {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
      ],
      [
        'a Polygon',
        {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        },
      ],
      [
        'a MultiPolygon',
        {
          type: 'MultiPolygon',
          coordinates: [
            [
              [
                [0, 0],
                [1, 0],
                [1, 1],
                [0, 0],
              ],
            ],
          ],
        },
      ],
      ['a GeometryCollection', { type: 'GeometryCollection', geometries: [point] }],
      ['a legacy pair', [2.35, 48.85]],
      ['null', null],
    ])('POST accepts %s', async (_, loc) => {
      const api = await start(config);
      expect((await api.post('/places', { _id: 1, loc })).status).toBe(201);
    });

    it('checks a geo field inside an array of objects', async () => {
      const api = await start(config);
      const bad = await api.post('/places', { _id: 1, stops: [{ at: point }, { at: [0, 100] }] });
      expectProblem(bad, 400, 'invalid_body');
      expect(field(bad.json, 'detail')).toMatch(/^body\.stops\.1\.at: /);
      expect((await api.post('/places', { _id: 2, stops: [{ at: point }, { name: 'x' }] })).status).toBe(201);
    });

    it('PUT and PATCH are checked too, on the document they would store', async () => {
      const api = await start(config);
      await api.seed('places', [{ _id: 1, loc: point }]);
      const bad = { type: 'Point', coordinates: [0, 91] };
      expectProblem(await api.request('PUT', '/places/1', { body: { loc: bad } }), 400, 'invalid_body');
      expectProblem(await api.request('PATCH', '/places/1', { body: { loc: bad } }), 400, 'invalid_body');
      const inside = await api.request('PATCH', '/places/1', { body: { 'loc.coordinates.0': 500 } });
      expectProblem(inside, 400, 'invalid_body');
      expectProblem(await api.request('PATCH', '/places/1', { body: { loc: 'here' } }), 400, 'invalid_body');
      expect((await api.get('/places/1')).json).toEqual({ _id: 1, loc: point });
      const moved = await api.request('PATCH', '/places/1', { body: { 'loc.coordinates.0': 2.4 } });
      expect(moved.status, moved.text).toBe(200);
      expect((await api.request('PUT', '/places/1', { body: { loc: [1, 2] } })).status).toBe(200);
    });
  });

  describe('timestamps', () => {
    it('stores createdAt and updatedAt as Dates when the resource asks for them', async () => {
      const api = await start({ resources: { notes: { timestamps: true } } });
      const reply = await api.post('/notes', { _id: 1, createdAt: 'forged' });
      expect(field(reply.json, 'createdAt')).toMatch(ISO);
      expect(field(reply.json, 'updatedAt')).toBe(field(reply.json, 'createdAt'));
      const stored = await api.db.collection('notes').findOne({ _id: 1 });
      expect(stored?.createdAt).toBeInstanceOf(Date);
      expect((await api.post('/items', { _id: 1 })).json).toEqual({ _id: 1 });
    });

    it('applies the global default, which a resource can turn off', async () => {
      const api = await start({ timestamps: true, resources: { logs: { timestamps: false } } });
      expect(field((await api.post('/items', { _id: 1 })).json, 'createdAt')).toMatch(ISO);
      expect((await api.post('/logs', { _id: 1 })).json).toEqual({ _id: 1 });
    });

    it('keeps createdAt on PUT and sets a new updatedAt', async () => {
      const api = await start({ timestamps: true });
      await api.db
        .collection('items')
        .insertOne({ _id: 1, createdAt: new Date('2020-01-01T00:00:00Z'), a: 1 });
      const reply = await api.request('PUT', '/items/1', {
        body: { b: 2, createdAt: { $date: '1999-01-01T00:00:00Z' } },
      });
      expect(reply.json).toEqual({
        _id: 1,
        b: 2,
        createdAt: '2020-01-01T00:00:00.000Z',
        updatedAt: expect.stringMatching(ISO),
      });
      expect(asString(field(reply.json, 'updatedAt')) > asString(field(reply.json, 'createdAt'))).toBe(true);
    });

    it('sets updatedAt on PATCH and never lets the body change createdAt', async () => {
      const api = await start({ timestamps: true });
      await api.db
        .collection('items')
        .insertOne({ _id: 1, createdAt: new Date('2020-01-01T00:00:00Z'), a: 1 });
      const reply = await api.request('PATCH', '/items/1', { body: { a: 2, createdAt: 'forged' } });
      expect(reply.json).toEqual({
        _id: 1,
        a: 2,
        createdAt: '2020-01-01T00:00:00.000Z',
        updatedAt: expect.stringMatching(ISO),
      });
    });
  });

  describe('PATCH with application/merge-patch+json (RFC 7396)', () => mergePatchTests(start));

  it('checks JSON Schema formats (resources.<name>.schema)', async () => {
    const properties = {
      email: { type: 'string', format: 'email' },
      at: { type: 'string', format: 'date-time' },
    };
    const api = await start({ resources: { people: { schema: { type: 'object', properties } } } });
    expect((await api.post('/people', { email: 'ann@example.com', at: '2024-05-01T10:00:00Z' })).status).toBe(
      201,
    );
    expectProblem(await api.post('/people', { email: 'ann@' }), 400, 'invalid_body');
    expectProblem(await api.post('/people', { at: 'yesterday' }), 400, 'invalid_body');
  });
}

const STORED = {
  _id: 1,
  title: 'Goodbye!',
  author: { givenName: 'John', familyName: 'Doe' },
  tags: ['example', 'sample'],
  content: 'This will be unchanged',
};

const mergePatch = (body: unknown) => ({
  raw: JSON.stringify(body),
  headers: { 'content-type': 'application/merge-patch+json' },
});

function mergePatchTests(start: Start): void {
  it('applies the RFC example: nested objects merge, null removes, arrays replace', async () => {
    const api = await start();
    await api.seed('items', [STORED]);
    const patch = {
      title: 'Hello!',
      phoneNumber: '+01-123-456-7890',
      author: { familyName: null },
      tags: ['example'],
    };
    const reply = await api.request('PATCH', '/items/1', mergePatch(patch));
    const expected = {
      _id: 1,
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    };
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual(expected);
    expect((await api.get('/items/1')).json).toEqual(expected);
  });

  it.each([
    ['an object over a scalar (its nulls left out)', { content: { a: 1, b: null } }, { a: 1 }],
    ['an object over an array', { tags: { first: 'x' } }, { first: 'x' }],
    ['a new object several levels deep', { extra: { a: { b: { c: null, d: 1 } } } }, { a: { b: { d: 1 } } }],
  ])('sets %s', async (_what, patch, value) => {
    const api = await start();
    await api.seed('items', [STORED]);
    const reply = await api.request('PATCH', '/items/1', mergePatch(patch));
    expect(reply.status, reply.text).toBe(200);
    const [key] = Object.keys(patch);
    expect(field(reply.json, key as string)).toEqual(value);
  });

  it('removes a whole nested object with null, and leaves the document else as it was for {}', async () => {
    const api = await start();
    await api.seed('items', [STORED]);
    const reply = await api.request('PATCH', '/items/1', mergePatch({ author: null, missing: null }));
    expect(reply.json).not.toHaveProperty('author');
    expect((await api.request('PATCH', '/items/1', mergePatch({}))).json).toEqual(reply.json);
  });

  it.each([
    ['a dotted key', { 'author.givenName': 'Ann' }],
    ['a $ key', { author: { $set: 1 } }],
    ['a different _id', { _id: 2 }],
    ['a null _id', { _id: null }],
  ])('answers 400 invalid_body for %s', async (_what, patch) => {
    const api = await start();
    await api.seed('items', [STORED]);
    expectProblem(await api.request('PATCH', '/items/1', mergePatch(patch)), 400, 'invalid_body');
  });

  it('answers 404 for an unknown id, and keeps the managed timestamps', async () => {
    const api = await start({ timestamps: true });
    expectProblem(await api.request('PATCH', '/items/9', mergePatch({ a: 1 })), 404, 'not_found');
    await api.db.collection('items').insertOne({ _id: 1, createdAt: new Date('2020-01-01T00:00:00Z'), a: 1 });
    const reply = await api.request('PATCH', '/items/1', mergePatch({ a: null, createdAt: null }));
    expect(reply.json).toEqual({
      _id: 1,
      createdAt: '2020-01-01T00:00:00.000Z',
      updatedAt: expect.stringMatching(ISO),
    });
  });
}
