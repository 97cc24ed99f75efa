/**
 * The ordered indexes change how documents are found, never which: every find through a range
 * or an index walk answers exactly what a full scan and sort answers, over generated documents
 * (numbers with duplicates, -0, strings, Dates, null, missing fields, and in some runs arrays),
 * filters (ranges in every type bracket, with other conditions) and sorts (either direction,
 * ties, `_id`).
 */
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { createEmbeddedDb } from '../src/index';

/** A small seeded generator (mulberry32): every run tests the same cases. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

const DAY = 86_400_000;

function values(r: ReturnType<typeof random>, arrays: boolean): unknown {
  const kinds = [
    () => r.int(20) - 5,
    () => r.int(10) / 4,
    () => -0,
    () => ['a', 'b', 'ab', 'B', 'é', ''][r.int(6)],
    () => new Date(Date.UTC(2030, 0, 1) + r.int(10) * DAY),
    () => null,
    () => r.next() < 0.5,
    ...(arrays ? [() => [r.int(20) - 5, r.int(20) - 5]] : []),
  ];
  return r.pick(kinds)();
}

function documents(r: ReturnType<typeof random>, arrays: boolean) {
  return Array.from({ length: 150 }, (_, i) => {
    const doc: Record<string, unknown> = {
      _id: r.next() < 0.5 ? i : new ObjectId(i.toString(16).padStart(24, '0')),
    };
    if (r.next() < 0.9) doc.n = values(r, arrays);
    doc.s = r.pick(['x', 'y', 'z']);
    return doc;
  });
}

function bound(r: ReturnType<typeof random>): unknown {
  return r.pick([
    () => r.int(20) - 5,
    () => r.int(10) / 4,
    () => r.pick(['a', 'ab', 'b', 'B']),
    () => new Date(Date.UTC(2030, 0, 1) + r.int(10) * DAY),
    () => r.next() < 0.5,
    () => null,
  ])();
}

function filter(r: ReturnType<typeof random>): Record<string, unknown> {
  const range: Record<string, unknown> = {};
  if (r.next() < 0.7) range[r.pick(['$gt', '$gte'])] = bound(r);
  if (r.next() < 0.6) range[r.pick(['$lt', '$lte'])] = bound(r);
  const conditions: Record<string, unknown>[] = [];
  if (Object.keys(range).length > 0) conditions.push({ n: range });
  if (r.next() < 0.2) conditions.push({ n: bound(r) });
  if (r.next() < 0.3) conditions.push({ s: r.pick(['x', 'y']) });
  if (r.next() < 0.2) conditions.push({ s: { $gte: r.pick(['x', 'y']) } });
  // A keyset ($after) shape: a range, an equality with a tie-breaker, later type brackets.
  if (r.next() < 0.3) {
    const types = r.pick([
      ['string', 'symbol'],
      ['date', 'bool'],
      ['null'],
      ['number'],
      ['objectId', 'date'],
    ]);
    conditions.push({
      $or: [
        { n: { [r.pick(['$gt', '$lt'])]: bound(r) } },
        { n: bound(r), _id: { $gt: r.int(150) } },
        { n: { $type: types } },
      ],
    });
  }
  if (r.next() < 0.1) conditions.push({ n: null });
  if (conditions.length === 0) return {};
  return conditions.length === 1 ? (conditions[0] as Record<string, unknown>) : { $and: conditions };
}

const SORTS: Array<Record<string, 1 | -1>> = [
  { n: 1 },
  { n: -1 },
  { n: 1, _id: 1 },
  { n: -1, s: 1 },
  { n: -1, _id: -1 },
  { _id: 1 },
  { _id: -1 },
  { s: 1, n: -1 },
];

describe('ordered indexes', () => {
  it.each([false, true])(
    'answer every find as a scan and sort does (arrays stored: %s)',
    async (arrays) => {
      for (let seed = 1; seed <= 60; seed++) {
        const r = random(seed * (arrays ? 7 : 1));
        const db = createEmbeddedDb();
        const indexed = db.collection('indexed');
        const plain = db.collection('plain');
        await indexed.createIndex({ n: 1 });
        await indexed.createIndex({ s: -1 });
        const docs = documents(r, arrays);
        for (const doc of docs) {
          await indexed.insertOne(doc);
          await plain.insertOne(doc);
        }
        // Some writes after the index was built: updates move entries, deletes remove them.
        for (let i = 0; i < 20; i++) {
          const target = { _id: (docs[r.int(docs.length)] as { _id: unknown })._id };
          const update = { $set: { n: values(r, arrays) } };
          await indexed.updateOne(target, update);
          await plain.updateOne(target, update);
        }
        for (let i = 0; i < 5; i++) {
          const target = { _id: (docs[r.int(docs.length)] as { _id: unknown })._id };
          await indexed.deleteOne(target);
          await plain.deleteOne(target);
        }
        for (let q = 0; q < 25; q++) {
          const f = filter(r);
          const sort = r.pick(SORTS);
          const skip = r.int(4) === 0 ? r.int(10) : 0;
          const limit = 1 + r.int(25);
          const all = await plain.find(f, { sort }).toArray();
          const page = await indexed.find(f, { sort, skip, limit }).toArray();
          const context = JSON.stringify({ seed, f, sort, skip, limit });
          expect(page, context).toEqual(all.slice(skip, skip + limit));
          expect(await indexed.countDocuments(f), context).toBe(all.length);
          expect(await indexed.find(f).toArray(), context).toEqual(await plain.find(f).toArray());
        }
      }
    },
    60_000,
  );
});
