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
      aCase('populate', { store: 100, baseline: 200, jsonServer: null }, { baseline: [0.2, 0.96, 0.97] }),
    ]);
    expect(cases[0].ratios.storeOverBaseline).toBe(0.96);
    expect(missed).toEqual([]);
  });

  it('falls back to the ratio of the totals for results without rounds', () => {
    const { cases, missed } = summarize([aCase('create', { store: 80, baseline: 100, jsonServer: 10 })]);
    expect(cases[0].ratios).toMatchObject({ storeOverBaseline: 0.8, storeOverJsonServer: 8 });
    expect(missed).toEqual(['create: store/baseline 0.80']);
  });

  it('holds each case to its own targets against json-server and the floor', () => {
    const rounds = { baseline: [1], floor: [2], jsonServer: [5] };
    const { missed } = summarize([
      aCase('list-filter', { store: 100, baseline: 100, floor: 50, jsonServer: 20 }, rounds),
      aCase('range-sort', { store: 100, baseline: 100, floor: 50, jsonServer: 20 }, rounds),
    ]);
    expect(missed).toEqual(['list-filter: store/floor 2.00', 'list-filter: store/json-server 5.00']);
  });

  it("rates the store command's server against the limit round by round", () => {
    const { cases, missed } = summarize([
      aCase(
        'get-by-id',
        { store: 10, baseline: 10, jsonServer: 1, limit: 100, storeCli: 40 },
        { baseline: [1, 1], jsonServer: [10, 10], limit: [0.1, 0.2], storeCli: [0.25, 0.4] },
      ),
    ]);
    expect(cases[0].ratios.storeCliOverLimit).toBeCloseTo(0.45);
    expect(missed).toEqual(['get-by-id: store-cli/limit 0.45']);
  });

  it('compares list-filter at 100,000 documents with list-filter at 10,000', () => {
    const { scalings, missed } = summarize([
      aCase('list-filter', { store: 100, baseline: 100, jsonServer: 10 }),
      aCase('list-filter-100k', { store: 50, baseline: 50, jsonServer: null }),
    ]);
    expect(scalings.find((s) => s.name === 'list-filter-100k').value).toBe(2);
    expect(missed).toContain('list-filter-100k: time / at the smaller size 2.00');
  });

  it('prints the median in the table and the spread of the rounds under it', () => {
    const summary = summarize([
      aCase(
        'get-by-id',
        { store: 90, baseline: 100, jsonServer: 30 },
        {
          baseline: [0.9, 0.96, 0.98, 1],
          jsonServer: [3, 3, 3, 3],
        },
      ),
    ]);
    const text = markdown(summary, META, '');
    expect(text).toContain(
      '| get-by-id | 90 | 100 | - | 30 | - | 1 / 1 / - / - / - | 0.97 ✅ | - | 3.00 ✅ | - |',
    );
    expect(text).toContain('- store/baseline round by round, lower to upper quartile: get-by-id 0.96-1.00');
    expect(text).toContain('Every target is met.');
  });

  it('rates a case with idle streams by its throughput against the store without them', () => {
    const streamed = {
      ...aCase('create-subscribed', { store: 70, reference: 100 }, { reference: [0.7, 0.75, 0.72] }),
      throughputAtLeast: 0.8,
      subscribers: 1000,
    };
    const summary = summarize([streamed]);
    expect(summary.missed).toEqual(['create-subscribed: throughput / reference 0.72']);
    expect(markdown(summary, META, '')).toContain(
      '- `create-subscribed` requests/s with 1,000 idle event streams attached / on a store with none (>= 0.8): **0.72** ❌ (time ratio 1.39)',
    );
  });

  it('prints the realtime memory figures as measured, without a target', () => {
    const realtime = {
      settings: { streams: 1000, reconnects: 1000, writes: 500, patches: 1000, kb: 900 },
      figures: { 'RSS per idle stream (KiB)': 46.834, 'RSS growth per reconnect (bytes)': 1254.4 },
    };
    const summary = summarize([], undefined, realtime);
    const text = markdown(summary, META, '');
    expect(text).toContain('1,000 idle streams; 1,000 reconnects after 500 writes; a 900 kB document');
    expect(text).toContain(
      '  - RSS per idle stream (KiB): 46.83\n  - RSS growth per reconnect (bytes): 1,254',
    );
    expect(summary.missed).toEqual([]);
  });

  it('says so when the realtime memory benchmark failed', () => {
    const summary = summarize([], undefined, { error: 'the store server exited (1)' });
    expect(summary.missed).toEqual(['realtime memory: failed (the store server exited (1))']);
    expect(markdown(summary, META, '')).toContain(
      '- realtime memory (`node bench/realtime-memory.mjs`): failed, the store server exited (1)',
    );
  });
});
