/**
 * A snapshot keeps the order of each collection's `_id` index, so that opening a directory does
 * not sort it again: the index an open builds from it answers sorts and ranges exactly as the
 * index of the database that wrote it, whatever inserts, updates, deletes and re-inserts came
 * before, and a record that is not a permutation of the documents is not used.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDb } from '@store/embedded';
import { ObjectId } from 'bson';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIdOrder, idOrderPlaces } from '../src/durable/id-order';

const quiet = () => undefined;

/** One write of the property: by a small `_id` space, so that deletes and re-inserts meet. */
type Step =
  | { kind: 'insert'; id: number | string; n: number }
  | { kind: 'update'; id: number | string; n: number }
  | { kind: 'replace'; id: number | string; n: number }
  | { kind: 'delete'; id: number | string };

const anId = fc.oneof(
  fc.integer({ min: -20, max: 20 }),
  fc.constantFrom('a', 'b', 'n:1', 's:a', 'null', 'é', '\u{1F600}'),
);
const aStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), id: anId, n: fc.integer() }),
  fc.record({ kind: fc.constant('update' as const), id: anId, n: fc.integer() }),
  fc.record({ kind: fc.constant('replace' as const), id: anId, n: fc.integer() }),
  fc.record({ kind: fc.constant('delete' as const), id: anId }),
);

async function play(db: ReturnType<typeof createEmbeddedDb>, steps: readonly Step[]): Promise<void> {
  const items = db.collection('items');
  for (const step of steps) {
    if (step.kind === 'insert') await items.insertOne({ _id: step.id, n: step.n }).catch(() => undefined);
    else if (step.kind === 'update') await items.updateOne({ _id: step.id }, { $set: { n: step.n } });
    else if (step.kind === 'replace')
      await items.replaceOne({ _id: step.id }, { n: step.n }, { upsert: true });
    else await items.deleteOne({ _id: step.id });
  }
}

/** Documents every run starts with: past the size where sorts walk the `_id` index, and the journal past the size compacted on close. */
const BASE = Array.from({ length: 1_100 }, (_, i) => ({ _id: 1_000 + i, n: i, pad: 'x'.repeat(64) }));
const PROBES: readonly unknown[] = [-21, -5, 0, 5, 21, 1_500, 'a', 'n:1', 'null', '\u{1F600}'];

/** What the `_id` index answers: the first and last pages of its sort, and a range on each side of each probe. */
async function indexAnswers(db: ReturnType<typeof createEmbeddedDb>): Promise<unknown[]> {
  const items = db.collection('items');
  const answers: unknown[] = [
    await items.find({}, { sort: { _id: 1 }, limit: 30 }).toArray(),
    await items.find({}, { sort: { _id: -1 }, limit: 30 }).toArray(),
  ];
  for (const _id of PROBES) {
    answers.push(await items.find({ _id: { $gt: _id } }, { sort: { _id: 1 }, limit: 10 }).toArray());
    answers.push(await items.find({ _id: { $lte: _id } }).toArray());
  }
  return answers;
}

describe('the _id order kept in a snapshot', () => {
  it('gives a reopened directory the index of the database that wrote it, after any writes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(aStep, { maxLength: 60 }),
        fc.array(aStep, { maxLength: 8 }),
        async (steps, after) => {
          const dir = mkdtempSync(join(tmpdir(), 'store-id-order-'));
          try {
            const writer = createEmbeddedDb({ dir, warn: quiet });
            await writer.collection('items').insertMany(BASE);
            await play(writer, steps);
            await writer.close(); // a snapshot, holding the order (the journal is past 64 KiB)
            const reader = createEmbeddedDb({ dir, warn: quiet });
            await play(reader, after); // journaled after the snapshot
            await reader.close();
            const reference = createEmbeddedDb();
            await reference.collection('items').insertMany(BASE);
            await play(reference, [...steps, ...after]);
            const reopened = createEmbeddedDb({ dir, warn: quiet });
            try {
              expect(await indexAnswers(reopened)).toEqual(await indexAnswers(reference));
            } finally {
              await reopened.close();
            }
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('gives the right index once a document was deleted and another inserted after the snapshot (as many documents, other places)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-id-order-'));
    try {
      const writer = createEmbeddedDb({ dir, warn: quiet });
      await writer.collection('items').insertMany(BASE);
      await writer.close(); // a snapshot, holding the order
      const reader = createEmbeddedDb({ dir, warn: quiet });
      await reader.collection('items').deleteOne({ _id: 1_000 });
      await reader.collection('items').insertOne({ _id: 500, n: -1 });
      await reader.close();
      const reopened = createEmbeddedDb({ dir, warn: quiet });
      try {
        const first = await reopened
          .collection('items')
          .find({}, { sort: { _id: 1 }, limit: 2 })
          .toArray();
        expect(first.map(({ _id }) => _id)).toEqual([500, 1_001]);
        const last = await reopened
          .collection('items')
          .find({}, { sort: { _id: -1 }, limit: 2 })
          .toArray();
        expect(last.map(({ _id }) => _id)).toEqual([2_099, 2_098]);
        expect(await reopened.collection('items').countDocuments({ _id: { $lte: 1_001 } })).toBe(2);
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps ObjectId and mixed-type _ids in MongoDB order across a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-id-order-'));
    try {
      const ids: unknown[] = [
        new ObjectId(),
        'z',
        3,
        null,
        new Date(5),
        true,
        { a: 1 },
        new ObjectId(),
        -1.5,
        'A',
      ];
      const writer = createEmbeddedDb({ dir, warn: quiet });
      await writer.collection('items').insertMany(ids.map((_id) => ({ _id })));
      const expected = await writer
        .collection('items')
        .find({}, { sort: { _id: 1 } })
        .toArray();
      await writer.close();
      const reopened = createEmbeddedDb({ dir, warn: quiet });
      try {
        expect(
          await reopened
            .collection('items')
            .find({}, { sort: { _id: 1 } })
            .toArray(),
        ).toEqual(expected);
        expect(
          await reopened
            .collection('items')
            .find({ _id: { $gt: 0 } })
            .toArray(),
        ).toEqual([{ _id: 3 }]);
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('idOrderPlaces', () => {
  it('ranks the sequences: places in the order the documents were read', () => {
    expect([...(idOrderPlaces(encodeIdOrder([7, 2, 9, 4]), 4) ?? [])]).toEqual([2, 0, 3, 1]);
  });

  it('ranks sequences spread too far to count by sorting, the same way', () => {
    expect([...(idOrderPlaces(encodeIdOrder([7e9, 2, 9e12, 4]), 4) ?? [])]).toEqual([2, 0, 3, 1]);
  });

  it.each([
    ['a repeated sequence', [1, 2, 2], 3],
    ['a repeated sequence spread too far to count', [1e12, 2, 1e12], 3],
    ['a sequence that is not a number', [1, Number.NaN, 3], 3],
    ['fewer sequences than documents', [1, 2], 3],
    ['more sequences than documents', [1, 2, 3, 4], 3],
  ])('is not used for %s', (_title, sequences, size) => {
    expect(idOrderPlaces(encodeIdOrder(sequences), size)).toBeUndefined();
  });

  it('reads a record at any byte offset', () => {
    const bytes = Buffer.concat([Buffer.from([0, 0, 0]), encodeIdOrder([3, 1, 2])]);
    expect([...(idOrderPlaces(bytes.subarray(3), 3) ?? [])]).toEqual([2, 0, 1]);
  });
});
