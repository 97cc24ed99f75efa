import { describe, expect, it } from 'vitest';
import { equalityClause } from './equality-keys';
import { SubscriberIndex } from './subscriber-index';

const sub = (name: string, filter: Record<string, unknown>) => ({ name, clause: equalityClause(filter) });
const names = (found: Set<{ name: string }>) => [...found].map(({ name }) => name).sort();

describe('SubscriberIndex', () => {
  const index = new SubscriberIndex<ReturnType<typeof sub>>();
  const ada = sub('ada', { user_id: { $in: ['a', 'A'] } });
  const bob = sub('bob', { $and: [{ user_id: 'b' }, { title: { $gt: 'x' } }] });
  const all = sub('all', { n: { $gte: 1 } });
  const room = sub('room', { room: 3 });
  for (const s of [ada, bob, all, room]) index.add(s);

  it('finds only the subscribers whose pinned value a document holds, plus the unindexed', () => {
    expect(names(index.candidates([{ user_id: 'A' }]))).toEqual(['ada', 'all']);
    expect(names(index.candidates([{ user_id: 'a' }, { user_id: 'b' }]))).toEqual(['ada', 'all', 'bob']);
    expect(names(index.candidates([{ user_id: ['x', 'b'] }]))).toEqual(['all', 'bob']);
    expect(names(index.candidates([{ room: 3.0 }]))).toEqual(['all', 'room']);
  });

  it('falls back to every subscriber of a field whose document value it cannot key', () => {
    expect(names(index.candidates([{ user_id: { nested: 1 } }]))).toEqual(['ada', 'all', 'bob']);
  });

  it('forgets a subscriber once deleted', () => {
    index.delete(ada);
    expect(names(index.candidates([{ user_id: 'a' }]))).toEqual(['all']);
    expect(index.size).toBe(3);
  });
});
