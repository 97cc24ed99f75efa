/**
 * The store's own writes, remembered while a change stream runs: the stream reports them too,
 * and they were already published (with the document before the write, which the stream may
 * lack). Bounded: past {@link MAX_REMEMBERED} the oldest are forgotten.
 */

import { idKeyOf } from '../model/id-key';
import type { Change } from './change';

const MAX_REMEMBERED = 10_000;

const keyOf = (change: Change): string =>
  `${change.collection}\u0000${change.kind}\u0000${idKeyOf(change.id)}`;

export function localWrites() {
  const counts = new Map<string, number>();
  let total = 0;
  return {
    remember(change: Change): void {
      const key = keyOf(change);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (++total <= MAX_REMEMBERED) return;
      const oldest = counts.keys().next().value as string;
      total -= counts.get(oldest) ?? 0;
      counts.delete(oldest);
    },
    /** Whether `change` is one of ours (then it is forgotten). */
    claim(change: Change): boolean {
      const key = keyOf(change);
      const count = counts.get(key);
      if (count === undefined) return false;
      total--;
      if (count === 1) counts.delete(key);
      else counts.set(key, count - 1);
      return true;
    },
  };
}
