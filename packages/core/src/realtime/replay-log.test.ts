/** The replay window's byte count: about the BSON size of the documents it holds, whatever they hold. */
import { Binary, calculateObjectSize, ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import type { NumberedChange } from './change';
import { ReplayLog } from './replay-log';

const change = (seq: number, after: Record<string, unknown>): NumberedChange => ({
  seq,
  collection: 'items',
  kind: 'insert',
  id: after._id,
  before: null,
  after,
});

describe('the replay window', () => {
  it.each([
    [
      'a small document',
      { _id: new ObjectId(), name: 'new', n: 42, tags: ['red', 'green'], at: new Date(0) },
    ],
    ['a long string', { _id: 1, text: 'x'.repeat(100_000) }],
    ['a binary of 1 MB', { _id: 2, file: new Binary(new Uint8Array(1 << 20)) }],
    ['a buffer of 1 MB', { _id: 3, file: Buffer.alloc(1 << 20) }],
    ['nested documents and arrays', { _id: 4, a: { b: [{ c: 'x'.repeat(5000) }, [1, 2, 3]] } }],
  ])('counts %s within a quarter of its BSON size', (_, doc) => {
    const log = new ReplayLog(10, 1 << 30);
    log.add(change(1, doc));
    const bson = calculateObjectSize(doc);
    expect(log.usage.bytes).toBeGreaterThan(bson * 0.75);
    expect(log.usage.bytes).toBeLessThan(bson * 1.25);
  });

  it('drops the oldest changes past its bytes bound', () => {
    const log = new ReplayLog(100, 3 << 20);
    for (let seq = 1; seq <= 5; seq++)
      log.add(change(seq, { _id: seq, file: new Binary(new Uint8Array(1 << 20)) }));
    expect(log.usage.changes).toBe(2);
    expect(log.since(0, 'items')).toBeUndefined();
    expect(log.since(3, 'items')?.map(({ last }) => last.seq)).toEqual([4, 5]);
  });
});
