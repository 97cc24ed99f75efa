/**
 * `resources.<name>.collation`, through the handler on every engine: the resource's lists filter
 * and sort by it (with `{ locale: 'en', strength: 2 }`, case-insensitively), its counts and
 * cursors agree with its pages, bulk PATCH / DELETE by filter change what the list shows, its
 * `indexes` are created with it, and lookups by id stay exact. A collation that is not one is
 * refused at start-up, naming the option.
 */
import type { Collation, Document, StoreDb } from '@store/common';
import { describeEngines } from '@store/test-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveStoreOptions } from '../../src/config/options';
import { createStoreHandler } from '../../src/handler/handler';
import type { StoreHandler } from '../../src/model/http';
import { type Answer, send } from '../support/send';

const PEOPLE: Document[] = [
  { _id: 'p1', name: 'alice', item: 'item 10' },
  { _id: 'p2', name: 'Bob', item: 'item 9' },
  { _id: 'p3', name: 'ALICE', item: 'item 1' },
  { _id: 'p4', name: 'carol', item: 'item 2' },
];
const CASE_INSENSITIVE: Collation = { locale: 'en', strength: 2 };
const names = (answer: Answer) => (answer.body as Document[]).map((doc) => doc.name);
const JSON_BODY = { 'content-type': 'application/json' };

describe('the collation option', () => {
  it('takes a collation document and refuses anything else, naming the option', () => {
    const resolved = resolveStoreOptions({ resources: { people: { collation: CASE_INSENSITIVE } } });
    expect(resolved.resources.get('people')?.collation).toEqual(CASE_INSENSITIVE);
    expect(
      resolveStoreOptions({ resources: { people: {} } }).resources.get('people')?.collation,
    ).toBeUndefined();
    const refused = (collation: unknown) => () =>
      resolveStoreOptions({ resources: { people: { collation: collation as Collation } } });
    expect(refused('en')).toThrow(/"resources\.people\.collation": expected a collation document/);
    expect(refused({ strength: 2 })).toThrow(
      /"resources\.people\.collation\.locale": a collation needs a locale/,
    );
    expect(refused({ locale: 'en', strength: 6 })).toThrow(/resources\.people\.collation\.strength/);
    expect(refused({ locale: 'en', caseless: true })).toThrow(
      /"resources\.people\.collation\.caseless": unknown option/,
    );
  });
});

describeEngines('a resource with a collation', (engine) => {
  let handle: StoreHandler | undefined;
  let db: StoreDb;
  const open = async (collation: Collation | undefined) => {
    db = await engine.createDb();
    await db.collection('people').insertMany(PEOPLE.map((doc) => ({ ...doc })));
    handle = createStoreHandler({ db, resources: { people: { collation, indexes: ['name'] } } });
    await handle.ready;
    return handle;
  };
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it('filters and sorts case-insensitively with strength 2, and by bytes without it', async () => {
    const binary = await open(undefined);
    expect(names(await send(binary, 'GET', '/people?name=alice'))).toEqual(['alice']);
    expect(names(await send(binary, 'GET', '/people?$sort=name&$sort=_id'))).toEqual([
      'ALICE',
      'Bob',
      'alice',
      'carol',
    ]);
    await binary.close();
    const collated = await open(CASE_INSENSITIVE);
    expect(names(await send(collated, 'GET', '/people?name=alice&$sort=_id'))).toEqual(['alice', 'ALICE']);
    expect(names(await send(collated, 'GET', '/people?$sort=name&$sort=_id'))).toEqual([
      'alice',
      'ALICE',
      'Bob',
      'carol',
    ]);
    expect(names(await send(collated, 'GET', '/people?name:gt=BOB&$sort=name'))).toEqual(['carol']);
    expect((await send(collated, 'GET', '/people?name=alice&$count=1')).body).toEqual({ count: 2 });
    const total = await send(collated, 'GET', '/people?name=ALICE&name=bob&$total=1');
    expect(total.headers['x-total-count']).toBe('3');
  });

  it('orders numbers inside strings with numericOrdering', async () => {
    const collated = await open({ locale: 'en', numericOrdering: true });
    const items = (await send(collated, 'GET', '/people?$sort=item')).body as Document[];
    expect(items.map((doc) => doc.item)).toEqual(['item 1', 'item 2', 'item 9', 'item 10']);
  });

  it('pages by cursor in the collated order without repeating or skipping', async () => {
    const collated = await open(CASE_INSENSITIVE);
    const first = await send(collated, 'GET', '/people?$sort=name&$sort=_id&$limit=2');
    expect(names(first)).toEqual(['alice', 'ALICE']);
    const next = /<([^>]*)>; rel="next"/.exec(String(first.headers.link))?.[1] as string;
    const second = await send(collated, 'GET', next.slice(next.indexOf('/people')));
    expect(names(second)).toEqual(['Bob', 'carol']);
  });

  it('changes by bulk PATCH and DELETE what the list shows, and keeps lookups by id exact', async () => {
    const collated = await open(CASE_INSENSITIVE);
    const patched = await send(collated, 'PATCH', '/people?name=ALICE', {
      headers: JSON_BODY,
      body: JSON.stringify({ name: 'Alice' }),
    });
    expect(patched.body).toEqual({ matched: 2, modified: 2 });
    expect((await send(collated, 'GET', '/people/p1')).body).toMatchObject({ name: 'Alice' });
    expect((await send(collated, 'GET', '/people/P1')).status).toBe(404);
    const deleted = await send(collated, 'DELETE', '/people?name=alice');
    expect(deleted.body).toEqual({ deleted: 2 });
    expect(names(await send(collated, 'GET', '/people?$sort=_id'))).toEqual(['Bob', 'carol']);
  });

  it('answers 501 not_supported, naming it, when the engine does not implement the request under the collation', async () => {
    db = await engine.createDb();
    await db.collection('people').insertMany(PEOPLE.map((doc) => ({ ...doc })));
    handle = createStoreHandler({
      db,
      dialects: true,
      resources: { people: { collation: CASE_INSENSITIVE } },
    });
    await handle.ready;
    // json-server's `q` is one `$expr` filter, which the embedded engine does not run under a collation.
    const answer = await send(handle, 'GET', '/people?q=ali&_sort=_id');
    if (engine.name !== 'embedded') {
      // MongoDB runs `$expr` under a collation.
      expect(answer.status).toBe(200);
      expect(names(answer)).toEqual(['alice', 'ALICE']);
      return;
    }
    expect(answer.status).toBe(501);
    expect(answer.body).toMatchObject({ code: 'not_supported', detail: expect.stringContaining('$expr') });
  });

  it("creates the resource's indexes with its collation", async () => {
    await open(CASE_INSENSITIVE);
    const indexes = await db.collection('people').listIndexes().toArray();
    const byName = indexes.find((index) => index.name === 'store_name_1');
    expect(byName?.collation).toMatchObject({ locale: 'en', strength: 2 });
  });

  it("replaces the resource's index when its collation changes, and back", async () => {
    await open(undefined);
    const collationOf = async () =>
      (await db.collection('people').listIndexes().toArray()).find((index) => index.name === 'store_name_1')
        ?.collation as { locale?: string; strength?: number } | undefined;
    expect(await collationOf()).toBeUndefined();
    await handle?.close();
    handle = createStoreHandler({
      db,
      resources: { people: { collation: CASE_INSENSITIVE, indexes: ['name'] } },
    });
    await handle.ready;
    expect(await collationOf()).toMatchObject({ locale: 'en', strength: 2 });
    await handle.close();
    handle = createStoreHandler({ db, resources: { people: { indexes: ['name'] } } });
    await handle.ready;
    expect(await collationOf()).toBeUndefined();
  });
});
