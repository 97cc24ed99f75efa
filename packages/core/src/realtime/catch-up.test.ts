import type { Document } from '@store/common';
import { describe, expect, it } from 'vitest';
import type { Change } from './change';
import { ChangeFeed } from './change-feed';
import {
  eventsOf,
  feedStore,
  lastId,
  options,
  queued,
  queuedText,
  realtime,
  subscriber,
} from './feed-fixtures.test-support';

const insert = (collection: string, after: Document): Change => ({
  collection,
  kind: 'insert',
  id: after._id,
  before: null,
  after,
});
const update = (collection: string, before: Document, after: Document): Change => ({
  collection,
  kind: 'update',
  id: after._id,
  before,
  after,
});
const remove = (collection: string, before: Document): Change => ({
  collection,
  kind: 'delete',
  id: before._id,
  before,
  after: null,
});

/** A feed with a reader on each of `paths` (kept open, so their collections stay watched). */
async function watchedFeed(feed: ChangeFeed, paths: string[]) {
  const streams = [];
  for (const path of paths) streams.push(feed.subscribe(await subscriber(path, 'ada'), undefined).stream);
  return streams;
}

/** The place of a reader that connected now: the id its stream carries before any event. */
async function placeNow(feed: ChangeFeed, path: string, userId?: string): Promise<string> {
  const stream = feed.subscribe(await subscriber(path, userId), undefined).stream;
  const id = lastId(await queuedText(stream));
  await stream.cancel();
  return id;
}

describe('catching a reconnect up', () => {
  it("replays only the reader's own collection, never another's (owner-only notes, hidden fields)", async () => {
    const feed = new ChangeFeed(realtime, options.logger);
    await watchedFeed(feed, ['/notes', '/accounts']);
    const place = await placeNow(feed, '/posts');
    feed.publish(insert('notes', { _id: 'n1', user_id: 'ada', title: 'alice private: IBAN' }));
    feed.publish(insert('accounts', { _id: 'a1', pin: '1234' }));
    feed.publish(insert('posts', { _id: 'p1', title: 'public' }));
    const text = await queuedText(feed.subscribe(await subscriber('/posts'), place).stream);
    expect(eventsOf(text)).toEqual(['created p1']);
    expect(text).not.toContain('IBAN');
    expect(text).not.toContain('1234');
    await feed.close();
  });

  it('removes hidden fields from a catch-up as a read does', async () => {
    const feed = new ChangeFeed(realtime, options.logger);
    const place = await placeNow(feed, '/accounts');
    await watchedFeed(feed, ['/accounts']);
    feed.publish(insert('accounts', { _id: 'a1', name: 'ada', pin: '1234' }));
    const text = await queuedText(feed.subscribe(await subscriber('/accounts'), place).stream);
    expect(eventsOf(text)).toEqual(['created a1']);
    expect(text).toContain('"name":"ada"');
    expect(text).not.toContain('pin');
    await feed.close();
  });

  it('sends a document changed several times once, in its current state, never an older version', async () => {
    const feed = new ChangeFeed(realtime, options.logger);
    await watchedFeed(feed, ['/posts']);
    const place = await placeNow(feed, '/posts');
    const v1 = { _id: 'p1', secret: 'early secret', v: 1 };
    const v2 = { _id: 'p1', v: 2 };
    const v3 = { _id: 'p1', v: 3 };
    feed.publish(insert('posts', v1));
    feed.publish(update('posts', v1, v2));
    feed.publish(insert('posts', { _id: 'p2', v: 1 }));
    feed.publish(update('posts', v2, v3));
    const text = await queuedText(feed.subscribe(await subscriber('/posts'), place).stream);
    expect(eventsOf(text)).toEqual(['created p2', 'created p1']);
    expect(text).toContain('"v":3');
    expect(text).not.toContain('early secret');
    const ids = [...text.matchAll(/^id: .+-(\d+)$/gm)].map(([, seq]) => Number(seq));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    await feed.close();
  });

  it("sends deleted only for documents whose last version passes the reader's rule now", async () => {
    const feed = new ChangeFeed(realtime, options.logger);
    await watchedFeed(feed, ['/notes']);
    const place = await placeNow(feed, '/notes', 'ada');
    feed.publish(remove('notes', { _id: 'b1', user_id: 'bob' }));
    feed.publish(remove('notes', { _id: 'a1', user_id: 'ada' }));
    // Created and then given away while ada was away: she never saw it, and it is not hers now.
    feed.publish(insert('notes', { _id: 'a2', user_id: 'ada' }));
    feed.publish(update('notes', { _id: 'a2', user_id: 'ada' }, { _id: 'a2', user_id: 'bob' }));
    const text = await queuedText(feed.subscribe(await subscriber('/notes', 'ada'), place).stream);
    expect(eventsOf(text)).toEqual(['deleted a1']);
    expect(text).not.toContain('"b1"');
    await feed.close();
  });

  it('answers reset, and nothing partial, once a change after the id left the replay window', async () => {
    const { realtime: small } = feedStore({ realtime: { replayEvents: 3 } });
    const feed = new ChangeFeed(small, options.logger);
    await watchedFeed(feed, ['/posts']);
    const place = await placeNow(feed, '/posts');
    for (const id of ['p1', 'p2', 'p3', 'p4']) feed.publish(insert('posts', { _id: id }));
    expect(await queued(feed.subscribe(await subscriber('/posts'), place).stream)).toEqual(['reset']);
    await feed.close();
  });

  it('resumes from the place a reader was given on connecting, before any event', async () => {
    const feed = new ChangeFeed(realtime, options.logger);
    await watchedFeed(feed, ['/posts']);
    const place = await placeNow(feed, '/posts');
    feed.publish(insert('posts', { _id: 'p1' }));
    expect(await queued(feed.subscribe(await subscriber('/posts'), place).stream)).toEqual(['created p1']);
    await feed.close();
  });
});

describe("the feed's memory", () => {
  it('keeps the replay window within replayBytes while a large document is patched again and again', async () => {
    const { realtime: bounded } = feedStore({ realtime: { replayBytes: '2mb' } });
    const feed = new ChangeFeed(bounded, options.logger);
    const [stream] = await watchedFeed(feed, ['/posts']);
    const big = 'x'.repeat(200 * 1024);
    let before: Document = { _id: 'p1', big, v: 0 };
    feed.publish(insert('posts', before));
    for (let v = 1; v <= 200; v++) {
      const after = { _id: 'p1', big, v };
      feed.publish(update('posts', before, after));
      before = after;
    }
    const { replayBytes, replayChanges } = feed.usage();
    expect(replayBytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(replayChanges).toBeGreaterThan(0);
    await stream?.cancel();
    await feed.close();
  });

  it('frees everything of 1,000 readers that left during their catch-up', async () => {
    const feed = new ChangeFeed(realtime, options.logger);
    const [watcher] = await watchedFeed(feed, ['/posts']);
    const place = await placeNow(feed, '/posts');
    for (let i = 0; i < 300; i++) feed.publish(insert('posts', { _id: `p${i}`, body: 'y'.repeat(500) }));
    const held = feed.usage();
    for (let i = 0; i < 1000; i++) {
      const stream = feed.subscribe(await subscriber('/posts'), place).stream;
      const read = stream.getReader();
      await read.read();
      await read.cancel();
    }
    expect(feed.usage()).toEqual(held);
    await watcher?.cancel();
    expect(feed.usage()).toMatchObject({ streams: 0, queuedBytes: 0 });
    await feed.close();
  });

  it('takes an event larger than maxQueuedBytes while the queue is below it, and drops a reader once the bound is waiting', async () => {
    const { realtime: tight } = feedStore({ realtime: { maxQueuedBytes: '16kb' } });
    const feed = new ChangeFeed(tight, options.logger);
    const stream = feed.subscribe(await subscriber('/posts'), undefined).stream;
    const read = stream.getReader();
    feed.publish(insert('posts', { _id: 'big1', body: 'z'.repeat(64 * 1024) }));
    let first = '';
    while (!first.includes('event:')) first += new TextDecoder().decode((await read.read()).value);
    expect(eventsOf(first)).toEqual(['created big1']);
    feed.publish(insert('posts', { _id: 'big2', body: 'z'.repeat(64 * 1024) }));
    feed.publish(insert('posts', { _id: 'big3', body: 'z'.repeat(64 * 1024) }));
    let rest = '';
    for (;;) {
      const next = await read.read();
      if (next.done) break;
      rest += new TextDecoder().decode(next.value);
    }
    // The events it had not read are let go with it: it resumes from big1's id.
    expect(eventsOf(rest)).toEqual(['dropped']);
    expect(rest).toContain('"code":"slow_consumer"');
    expect(feed.usage()).toMatchObject({ streams: 0, queuedBytes: 0 });
    await feed.close();
  });
});
