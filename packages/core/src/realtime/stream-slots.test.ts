import { describe, expect, it } from 'vitest';
import { renderError } from '../http/render-error';
import { type StreamLimits, StreamSlots } from './stream-slots';

const limits: StreamLimits = { maxSubscribers: 10, maxStreamsPerClient: 3, signedInShare: 0.5 };

/** One stream to open: the client's key and whether it is signed in. */
type Open = readonly [clientKey: string, signedIn: boolean];

const times = (count: number, open: Open): Open[] => Array.from({ length: count }, () => open);

/** The answer the last of `opens` gets once the others are open: `200`, or the problem's status and code. */
function lastAnswer(opens: readonly Open[], options: StreamLimits = limits): string {
  const slots = new StreamSlots(options);
  const [last, ...before] = [...opens].reverse();
  for (const [key, signedIn] of before.reverse()) slots.take(key, signedIn);
  if (last === undefined) throw new Error('no stream to open');
  try {
    slots.take(...last);
    return '200';
  } catch (error) {
    const answer = renderError(error, console);
    return `${answer.status} ${JSON.parse(answer.body ?? '{}').code}`;
  }
}

describe('StreamSlots', () => {
  it.each<[string, Open[], string, StreamLimits?]>([
    ['a first stream', [['session:a', true]], '200'],
    ['a client under its cap', [...times(2, ['session:a', true]), ['session:a', true]], '200'],
    ['a client at its cap', [...times(3, ['session:a', true]), ['session:a', true]], '429 too_many_streams'],
    [
      'an address at its cap',
      [...times(3, ['address:192.0.2.7', false]), ['address:192.0.2.7', false]],
      '429 too_many_streams',
    ],
    ['another client next to one at its cap', [...times(3, ['session:a', true]), ['session:b', true]], '200'],
    [
      'an anonymous reader when anonymous readers hold their share',
      [
        ...times(3, ['address:192.0.2.1', false]),
        ...times(2, ['address:192.0.2.2', false]),
        ['address:192.0.2.3', false],
      ],
      '429 too_many_streams',
    ],
    [
      'a signed-in reader when anonymous readers hold their share',
      [
        ...times(3, ['address:192.0.2.1', false]),
        ...times(2, ['address:192.0.2.2', false]),
        ['session:a', true],
      ],
      '200',
    ],
    [
      'anyone when the store is full',
      [
        ...times(3, ['session:a', true]),
        ...times(3, ['session:b', true]),
        ...times(3, ['session:c', true]),
        ['session:d', true],
        ['session:e', true],
      ],
      '503 too_many_subscribers',
    ],
    [
      'an anonymous reader when signed-in readers hold the rest',
      [...times(3, ['session:a', true]), ...times(3, ['session:b', true]), ['address:192.0.2.1', false]],
      '200',
    ],
    [
      'an anonymous reader with signedInShare 1',
      [['address:192.0.2.1', false]],
      '429 too_many_streams',
      { ...limits, signedInShare: 1 },
    ],
    [
      'an anonymous reader of a full store with signedInShare 0',
      [...times(10, ['address:192.0.2.1', false]), ['address:192.0.2.2', false]],
      '503 too_many_subscribers',
      { ...limits, maxStreamsPerClient: 100, signedInShare: 0 },
    ],
  ])('answers %s with %s', (_case, opens, answer, options) => {
    expect(lastAnswer(opens, options)).toBe(answer);
  });

  it.each([
    [10, 0.5, 5],
    [10, 0.7, 3],
    [10, 0.3, 7],
    [10_000, 0.5, 5000],
    [7, 0.5, 3],
  ])('with maxSubscribers %i and signedInShare %d, anonymous readers hold %i streams', (max, share, cap) => {
    const slots = new StreamSlots({ maxSubscribers: max, maxStreamsPerClient: max, signedInShare: share });
    for (let i = 0; i < cap; i++) slots.take(`address:${i}`, false);
    expect(() => slots.take('address:next', false)).toThrow(
      expect.objectContaining({ code: 'too_many_streams' }),
    );
    expect(slots.anonymous).toBe(cap);
  });

  it('refuses with Retry-After, as a problem body', () => {
    const slots = new StreamSlots({ ...limits, maxStreamsPerClient: 1 });
    slots.take('session:a', true);
    const answer = renderError(
      captured(() => slots.take('session:a', true)),
      console,
    );
    expect(answer.status).toBe(429);
    expect(answer.headers).toMatchObject({ 'retry-after': '5', 'content-type': 'application/problem+json' });
    expect(JSON.parse(answer.body ?? '{}')).toMatchObject({ status: 429, code: 'too_many_streams' });
  });

  it('gives a slot back once, however often the release is called', () => {
    const slots = new StreamSlots({ ...limits, maxStreamsPerClient: 2 });
    const release = slots.take('session:a', true);
    slots.take('session:a', true);
    release();
    release();
    expect(slots.heldBy('session:a')).toBe(1);
    expect(slots.size).toBe(1);
    slots.take('session:a', true);
    expect(() => slots.take('session:a', true)).toThrow(expect.objectContaining({ status: 429 }));
  });

  it('forgets a client once its last stream ends', () => {
    const slots = new StreamSlots(limits);
    const releases = [
      slots.take('address:192.0.2.1', false),
      slots.take('session:a', true),
      slots.take('session:a', true),
    ];
    expect(slots.clients).toBe(2);
    for (const release of releases) release();
    expect({ size: slots.size, anonymous: slots.anonymous, clients: slots.clients }).toEqual({
      size: 0,
      anonymous: 0,
      clients: 0,
    });
  });

  it('takes nothing when it refuses', () => {
    const slots = new StreamSlots({ ...limits, signedInShare: 1 });
    expect(() => slots.take('address:192.0.2.1', false)).toThrow();
    expect({ size: slots.size, clients: slots.clients }).toEqual({ size: 0, clients: 0 });
  });
});

function captured(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}
