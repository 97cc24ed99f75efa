import { describe, expect, it } from 'vitest';
import { markdown, median, quartiles, summarize } from './report.mjs';

const META = {
  quick: false,
  date: '2026-01-01 00:00',
  commit: 'abc1234',
  node: 'v20',
  cpus: 2,
  connections: 10,
  rounds: 4,
  seconds: 1.5,
  warmup: 3,
  skipped: [],
};

const aCase = (name, rps, roundRatios) => ({
  name,
  rps,
  p99ms: { store: 1, baseline: 1, jsonServer: null },
  roundRatios,
  check: 'ok',
  failures: 0,
});

describe('median and quartiles', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('gives the lower and upper quartiles by nearest rank', () => {
    expect(quartiles([0.5, 0.9, 0.8, 1.2, 1, 0.7, 1.1, 0.6])).toEqual([0.7, 1.1]);
  });
});

describe('summarize', () => {
  it('rates the store by the median of its round ratios, not by the totals', () => {
    const { cases, missed } = summarize([
      aCase('populate', { store: 100, baseline: 200, jsonServer: null }, { baseline: [0.2, 0.9, 0.95] }),
    ]);
    expect(cases[0].ratios.storeOverBaseline).toBe(0.9);
    expect(missed).toEqual([]);
  });

  it('falls back to the ratio of the totals for results without rounds', () => {
    const { cases, missed } = summarize([aCase('create', { store: 80, baseline: 100, jsonServer: 10 })]);
    expect(cases[0].ratios).toEqual({ storeOverBaseline: 0.8, storeOverJsonServer: 8 });
    expect(missed).toEqual(['create: store/baseline 0.80']);
  });

  it('prints the median in the table and the spread of the rounds under it', () => {
    const summary = summarize([
      aCase(
        'get-by-id',
        { store: 90, baseline: 100, jsonServer: 30 },
        {
          baseline: [0.8, 0.9, 0.95, 1],
          jsonServer: [3, 3, 3, 3],
        },
      ),
    ]);
    const text = markdown(summary, META, '');
    expect(text).toContain('| get-by-id | 90 | 100 | 30 | 1 / 1 / - | 0.93 ✅ | 3.00 ✅ |');
    expect(text).toContain('- store/baseline round by round, lower to upper quartile: get-by-id 0.90-1.00');
    expect(text).toContain('Every target is met.');
  });
});
