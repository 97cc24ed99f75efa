import { EventEmitter } from 'node:events';
import type { Document } from '@store/common';
import { createEmbeddedDb } from '@store/embedded';
import { ObjectId } from 'bson';
import { describe, expect, it, vi } from 'vitest';
import type { Change } from './change';
import { ChangeFeed } from './change-feed';
import { changeOf, driverChangeSource, type WatchableDb } from './change-stream';
import {
  eventsOf,
  lastId,
  options,
  queued,
  queuedText,
  realtime,
  subscriber,
} from './feed-fixtures.test-support';
import { publishingDb } from './publishing-db';

const note = (id: string, owner: string, extra: Document = {}) => ({ _id: id, user_id: owner, ...extra });
const post = (id: string): Change => ({
  collection: 'posts',
  kind: 'insert',
  id,
  before: null,
  after: { _id: id },
});

describe('ChangeFeed', () => {
  it('replays to a reconnect while its collection stays watched, and sends reset once writes went unrecorded', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const feed = new ChangeFeed(realtime, options.logger);
      // As publishingDb does: a write is published only while its collection is watched.
      const write = (id: string) => feed.watching('posts') && feed.publish(post(id));
      const first = feed.subscribe(await subscriber('/posts'), undefined).stream;
      write('p1');
      const seen = lastId(await queuedText(first));
      await first.cancel();
      write('p2');
      const again = feed.subscribe(await subscriber('/posts'), seen).stream;
      const replayed = await queuedText(again);
      expect(eventsOf(replayed)).toEqual(['created p2']);
      await again.cancel();
      vi.advanceTimersByTime(61_000);
      write('p3');
      // Another reader starts watching again: p3 was never recorded, so a resume cannot replay it.
      const other = feed.subscribe(await subscriber('/posts'), undefined).stream;
      const late = feed.subscribe(await subscriber('/posts'), lastId(replayed)).stream;
      expect(await queued(late)).toEqual(['reset']);
      await other.cancel();
      await feed.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends a stream with dropped (unauthorized) once its session expired', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      const feed = new ChangeFeed({ ...realtime, keepAliveSeconds: 1 }, options.logger);
      const stream = feed.subscribe(await subscriber('/notes', 'ada'), undefined).stream;
      vi.advanceTimersByTime(1000);
      expect(await queuedText(stream)).toContain(': keep-alive');
      vi.advanceTimersByTime(60_000);
      const text = await queuedText(stream);
      expect(eventsOf(text)).toEqual(['dropped']);
      expect(text).toContain('"code":"unauthorized"');
      await feed.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('indexes owner subscribers: a change reaches only the owner, before or after', async () => {
    const feed = new ChangeFeed(realtime, options.logger);
    const ada = feed.subscribe(await subscriber('/notes', 'ada'), undefined).stream;
    const bob = feed.subscribe(await subscriber('/notes', 'bob'), undefined).stream;
    feed.publish({ collection: 'notes', kind: 'insert', id: 'n1', before: null, after: note('n1', 'ada') });
    feed.publish({ collection: 'notes', kind: 'insert', id: 'n2', before: null, after: note('n2', 'bob') });
    expect(await queued(ada)).toEqual(['created n1']);
    expect(await queued(bob)).toEqual(['created n2']);
    await feed.close();
  });

  it('sends deleted, when the document before is unknown, only to subscribers that could read it', async () => {
    const feed = new ChangeFeed(realtime, options.logger);
    const ada = feed.subscribe(await subscriber('/notes?tag=red', 'ada'), undefined).stream;
    const bob = feed.subscribe(await subscriber('/notes?tag=red', 'bob'), undefined).stream;
    const open = feed.subscribe(await subscriber('/posts'), undefined).stream;
    // Another process's update, without a pre-image: ada's note left her filter.
    feed.publish({
      collection: 'notes',
      kind: 'update',
      id: 'n1',
      before: undefined,
      after: note('n1', 'ada'),
    });
    // Another process's deletes, without pre-images: nobody knows whose note it was.
    feed.publish({ collection: 'notes', kind: 'delete', id: 'n2', before: undefined, after: null });
    feed.publish({ collection: 'posts', kind: 'delete', id: 'p1', before: undefined, after: null });
    expect(await queued(ada)).toEqual(['deleted n1']);
    expect(await queued(bob)).toEqual([]);
    expect(await queued(open)).toEqual(['deleted p1']);
    await feed.close();
  });

  it('keys ObjectIds and their hex strings apart, as MongoDB equality does', async () => {
    const feed = new ChangeFeed(realtime, options.logger);
    const id = new ObjectId();
    const stream = feed.subscribe(await subscriber(`/posts?ref=${id.toHexString()}`), undefined).stream;
    feed.publish({
      collection: 'posts',
      kind: 'insert',
      id: 'p1',
      before: null,
      after: { _id: 'p1', ref: id },
    });
    feed.publish({
      collection: 'posts',
      kind: 'insert',
      id: 'p2',
      before: null,
      after: { _id: 'p2', ref: id.toHexString() },
    });
    const matched = await queued(stream);
    expect(matched).toHaveLength(1);
    await feed.close();
  });
});

describe('publishingDb', () => {
  it('passes writes to unwatched collections straight through, publishing nothing', async () => {
    const published: Change[] = [];
    const db = publishingDb(createEmbeddedDb(), { watching: () => false, publish: (c) => published.push(c) });
    await db.collection('notes').insertOne({ _id: 1 });
    await db.collection('notes').updateMany({}, { $set: { a: 1 } });
    await db.collection('notes').deleteMany({});
    expect(published).toEqual([]);
  });

  it('publishes each write to a watched collection with the documents before and after', async () => {
    const published: Change[] = [];
    const db = publishingDb(createEmbeddedDb(), { watching: () => true, publish: (c) => published.push(c) });
    const notes = db.collection('notes');
    await notes.insertMany([
      { _id: 1, n: 1 },
      { _id: 2, n: 2 },
    ]);
    await notes.findOneAndUpdate({ _id: 1 }, { $set: { n: 10 } }, { returnDocument: 'after' });
    await notes.updateMany({ n: { $lt: 5 } }, { $set: { n: 5 } });
    await notes.updateMany({}, { $set: { n: 5 } }, {});
    await notes.deleteOne({ _id: 1 });
    expect(published.map(({ kind, id, before, after }) => [kind, id, before?.n, after?.n])).toEqual([
      ['insert', 1, undefined, 1],
      ['insert', 2, undefined, 2],
      ['update', 1, 1, 10],
      ['update', 2, 2, 5],
      ['update', 1, 10, 5],
      ['delete', 1, 5, undefined],
    ]);
  });
});

describe('driverChangeSource', () => {
  function fakeDb(hello: Document) {
    const stream = Object.assign(new EventEmitter(), { close: vi.fn(async () => undefined) });
    const db = {
      command: vi.fn(async () => hello),
      watch: vi.fn((_pipeline: Document[], _options: Document) => stream),
    };
    return { db: db as unknown as WatchableDb & typeof db, stream };
  }

  it('does not watch a standalone server (no change streams there)', async () => {
    const { db } = fakeDb({ ok: 1, maxWireVersion: 21 });
    expect(await driverChangeSource(db, options.logger).start(() => undefined)).toBeUndefined();
    expect(db.watch).not.toHaveBeenCalled();
  });

  it('watches a replica set with looked-up documents, and pre-images from MongoDB 6.0 on', async () => {
    const { db, stream } = fakeDb({ ok: 1, setName: 'rs0', maxWireVersion: 17 });
    const changes: Change[] = [];
    const stop = await driverChangeSource(db, options.logger).start((change) => changes.push(change));
    expect(db.watch.mock.calls[0]?.[1]).toEqual({
      fullDocument: 'updateLookup',
      fullDocumentBeforeChange: 'whenAvailable',
    });
    stream.emit('change', {
      operationType: 'replace',
      ns: { coll: 'notes' },
      documentKey: { _id: 1 },
      fullDocument: { _id: 1 },
    });
    stream.emit('change', { operationType: 'drop', ns: { coll: 'notes' } });
    expect(changes).toEqual([
      { collection: 'notes', kind: 'update', id: 1, before: undefined, after: { _id: 1 } },
    ]);
    await stop?.();
    expect(stream.close).toHaveBeenCalled();
  });

  it("maps change events to changes (the manual's fields)", () => {
    expect(
      changeOf({
        operationType: 'insert',
        ns: { coll: 'c' },
        documentKey: { _id: 1 },
        fullDocument: { _id: 1 },
      }),
    ).toEqual({
      collection: 'c',
      kind: 'insert',
      id: 1,
      before: null,
      after: { _id: 1 },
    });
    expect(
      changeOf({
        operationType: 'delete',
        ns: { coll: 'c' },
        documentKey: { _id: 1 },
        fullDocumentBeforeChange: { _id: 1, a: 1 },
      }),
    ).toEqual({
      collection: 'c',
      kind: 'delete',
      id: 1,
      before: { _id: 1, a: 1 },
      after: null,
    });
    // An update whose document was deleted before the look-up: its delete event follows.
    expect(
      changeOf({ operationType: 'update', ns: { coll: 'c' }, documentKey: { _id: 1 }, fullDocument: null }),
    ).toBeUndefined();
  });

  it("skips the change stream's report of this process's own writes", async () => {
    const { db, stream } = fakeDb({ ok: 1, setName: 'rs0', maxWireVersion: 17 });
    const feed = new ChangeFeed(realtime, options.logger);
    feed.useSource(driverChangeSource(db, options.logger));
    const events = feed.subscribe(await subscriber('/posts'), undefined).stream;
    await vi.waitFor(() => expect(db.watch).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 0));
    feed.publish({ collection: 'posts', kind: 'insert', id: 'mine', before: null, after: { _id: 'mine' } });
    stream.emit('change', {
      operationType: 'insert',
      ns: { coll: 'posts' },
      documentKey: { _id: 'mine' },
      fullDocument: { _id: 'mine' },
    });
    stream.emit('change', {
      operationType: 'insert',
      ns: { coll: 'posts' },
      documentKey: { _id: 'theirs' },
      fullDocument: { _id: 'theirs' },
    });
    expect(await queued(events)).toEqual(['created mine', 'created theirs']);
    await feed.close();
    expect(stream.close).toHaveBeenCalled();
  });
});
