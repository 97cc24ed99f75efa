/**
 * An ordered index fed keys out of order (random string ids, values inserted anywhere) holds
 * exactly the entries a full sort gives, in (value, insertion) order, whatever mix of inserts,
 * removals, moves and reads came before: entries waiting to be merged are found by removals and
 * moves, and every read sees them; so do entries added in bulk batches (`addingMany`), sorted and
 * merged only once they are many.
 */
import type { Document } from '@store/common';
import { describe, expect, it } from 'vitest';
import { compareValues, RANK } from '../src/bson-order';
import { OrderedIndex } from '../src/ordered-index';
import { entriesOf } from './support/index-entries';
import { seededIntegers } from './support/seeded-random';

interface Held {
  doc: Document;
  seq: number;
}

/** The entries a full sort of `held` gives. */
function sorted(held: Map<string, Held>) {
  return [...held]
    .map(([docKey, { doc, seq }]) => ({ value: doc.v, docKey, seq }))
    .sort((a, b) => compareValues(a.value, b.value) || a.seq - b.seq);
}

describe('an ordered index fed out of order', () => {
  // Small thresholds, so entries wait and merge often; and the defaults (splices at this size).
  const tunings = [
    { spliceAtMost: 0, pendingAtLeast: 1 },
    { spliceAtMost: 100, pendingAtLeast: 16 },
    { spliceAtMost: 16_384, pendingAtLeast: 256 },
  ];
  it.each([1, 2, 3].flatMap((seed) => tunings.map((tuning) => [seed, tuning] as const)))(
    'holds what a full sort holds after any mix of inserts, removals, moves and reads (seed %i, %o)',
    (seed, tuning) => {
      const int = seededIntegers(seed);
      const value = () => (int(4) === 0 ? `s${int(500)}` : int(2000) - 1000);
      const index = new OrderedIndex('v', [], () => 0, tuning);
      const held = new Map<string, Held>();
      let seq = 0;
      for (let step = 0; step < 6000; step++) {
        const keys = [...held.keys()];
        const roll = int(100);
        if (roll < 60 || keys.length === 0) {
          const docKey = `k${step}`;
          const doc = { v: value() };
          held.set(docKey, { doc, seq: ++seq });
          index.add(docKey, doc, seq);
        } else if (roll < 75) {
          const docKey = keys[int(keys.length)] as string;
          const { doc, seq: at } = held.get(docKey) as Held;
          held.delete(docKey);
          index.remove(docKey, doc, at);
        } else if (roll < 90) {
          const docKey = keys[int(keys.length)] as string;
          const { doc, seq: at } = held.get(docKey) as Held;
          // Half the moves keep the value (replaced in place), half change it.
          const next = { v: int(2) === 0 ? doc.v : value() };
          held.set(docKey, { doc: next, seq: at });
          index.move(docKey, doc, next, at);
        } else if (roll < 93) {
          expect(entriesOf(index)).toEqual(sorted(held));
        } else if (roll < 95 && keys.length > 20) {
          const removed = keys.slice(0, 20).map((docKey) => {
            const { doc, seq: at } = held.get(docKey) as Held;
            held.delete(docKey);
            return [docKey, doc, at] as [string, Document, number];
          });
          index.removeAll(removed);
        }
      }
      expect(entriesOf(index)).toEqual(sorted(held));
      expect(index.all()).toEqual([0, held.size]);
    },
  );

  it.each([1, 2, 3])(
    'holds what a full sort holds when fed in bulk batches, between removals, moves and reads (seed %i)',
    (seed) => {
      const int = seededIntegers(seed);
      const value = () => (int(4) === 0 ? `s${int(500)}` : int(2000) - 1000);
      const index = new OrderedIndex('v', [], () => 0, { spliceAtMost: 0, pendingAtLeast: 16 });
      const held = new Map<string, Held>();
      let seq = 0;
      for (let batch = 0; batch < 60; batch++) {
        index.addingMany(() => {
          for (let i = int(600); i > 0; i--) {
            const docKey = `k${++seq}`;
            // Now and then an array (kept apart) or a value past every other (appended).
            const doc = { v: int(20) === 0 ? [value()] : int(5) === 0 ? 10_000 + seq : value() };
            held.set(docKey, { doc, seq });
            index.add(docKey, doc, seq);
          }
        });
        const keys = [...held.keys()];
        const roll = int(4);
        if (roll === 0)
          expect(entriesOf(index)).toEqual(sorted(held).filter(({ value }) => !Array.isArray(value)));
        for (let i = 0; i < 5 && keys.length > 0; i++) {
          const docKey = keys[int(keys.length)] as string;
          const { doc, seq: at } = held.get(docKey) as Held;
          if (roll === 1) {
            held.delete(docKey);
            index.remove(docKey, doc, at);
          } else if (roll === 2) {
            const next = { v: value() };
            held.set(docKey, { doc: next, seq: at });
            index.move(docKey, doc, next, at);
          }
        }
      }
      const expected = sorted(held).filter(({ value }) => !Array.isArray(value));
      expect(entriesOf(index)).toEqual(expected);
      expect(index.multikey.size).toBe(held.size - expected.length);
    },
  );

  it('answers a range over entries still waiting to be merged', () => {
    const index = new OrderedIndex('v', [], () => 0, { spliceAtMost: 0, pendingAtLeast: 100 });
    index.add('last', { v: 100 }, 1);
    for (let i = 0; i < 10; i++) index.add(`k${i}`, { v: i }, i + 2);
    const [from, to] = index.span({
      rank: RANK.number,
      lower: { value: 3, inclusive: true },
      upper: { value: 6, inclusive: false },
    });
    expect(
      entriesOf(index)
        .slice(from, to)
        .map(({ docKey }) => docKey),
    ).toEqual(['k3', 'k4', 'k5']);
  });
});
