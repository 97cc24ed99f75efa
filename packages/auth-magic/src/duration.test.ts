import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration';

const NOW = new Date('2025-03-01T12:00:00Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('parseDuration', () => {
  it.each([
    ['15m', 15 * MINUTE],
    ['1d', DAY],
    ['10 minutes', 10 * MINUTE],
    ['in one day', DAY],
    ['in 10 minutes', 10 * MINUTE],
    ['  in 2 weeks ', 14 * DAY],
    ['30 days', 30 * DAY],
    [90_000, 90_000],
  ])('reads %j as %i ms', (input, expected) => {
    expect(parseDuration(input, NOW)).toBe(expected);
  });

  it.each([
    ['banana'],
    [''],
    ['yesterday'],
    ['in 0 minutes'],
    ['-5m'],
    ['in one day and then some'],
    ['1d'.repeat(60)],
    [0],
    [-1],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [null],
    [{}],
  ])('rejects %j', (input) => {
    expect(parseDuration(input, NOW)).toBeUndefined();
  });
});
