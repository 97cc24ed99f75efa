import { describe, expect, it } from 'vitest';
import { scaleMarkdown, scaleTargets } from './scale-report.mjs';

const NAMES = ['storeCli', 'jsonServer', 'jsonServerV1'];
const each = (values) => Object.fromEntries(NAMES.map((name, i) => [name, values[i]]));

/** One measured size: `range` is the contenders' range + sort req/s. */
function size(documents, { startup = [1000, 800, 900], rss = [300, 250, 400], range = [100, 10, 5] } = {}) {
  const loaded = (rps, check = 'ok') => ({ rps: each(rps), check, failures: 0 });
  return {
    documents,
    startupMs: each(startup),
    rssPerDocument: each(rss),
    loads: { getById: loaded([5000, 1000, 2000]), equality: loaded([300, 100, 50]), range: loaded(range) },
  };
}

const byName = (targets) => Object.fromEntries(targets.map((target) => [target.name, target]));

describe('scaleTargets', () => {
  it('measures the range growth as the ratio of requests/s, against 11x for ten times the documents', () => {
    const { 'range-growth': growth } = byName(
      scaleTargets([size(100_000, { range: [100, 10, 5] }), size(1_000_000, { range: [10, 1, 0.5] })]),
    );
    expect(growth.value).toBe(10);
    expect(growth.target).toBeCloseTo(11);
    expect(growth.met).toBe(true);
  });

  it('scales the growth target with the sizes measured (1.1x per the documents ratio)', () => {
    const { 'range-growth': growth } = byName(
      scaleTargets([size(10_000, { range: [100, 10, 5] }), size(100_000, { range: [8, 1, 0.5] })]),
    );
    expect(growth.value).toBe(12.5);
    expect(growth.met).toBe(false);
  });

  it('fails the growth target when the range answers differ, whatever the figures', () => {
    const small = size(100_000);
    small.loads.range.check = 'mismatch';
    const { 'range-growth': growth } = byName(scaleTargets([small, size(1_000_000, { range: [50, 1, 1] })]));
    expect(growth.met).toBe(false);
    expect(growth.text).toContain('answers differ');
  });

  it('says when the two sizes were timed differently (autocannon at one, a request at a time at the other)', () => {
    const small = size(10_000);
    small.loads.range.connections = 10;
    const large = size(100_000);
    large.loads.range.connections = 1;
    expect(byName(scaleTargets([small, large]))['range-growth'].text).toContain('timed differently');
  });

  it('says the growth is not measured with one size', () => {
    expect(byName(scaleTargets([size(1_000_000)]))['range-growth'].value).toBeNull();
  });

  it('compares start-up and RSS per document to json-server 0.17 at the largest size', () => {
    const targets = byName(
      scaleTargets([
        size(100_000, { startup: [9000, 100, 100], rss: [900, 100, 100] }),
        size(1_000_000, { startup: [1900, 1000, 500], rss: [160, 100, 50] }),
      ]),
    );
    expect(targets.startup).toMatchObject({ value: 1.9, target: 2, met: true });
    expect(targets['rss-per-document']).toMatchObject({ value: 1.6, target: 1.5, met: false });
  });

  it('says start-up and RSS are not measured without json-server 0.17', () => {
    const only = size(1_000_000);
    delete only.startupMs.jsonServer;
    delete only.rssPerDocument.jsonServer;
    const targets = byName(scaleTargets([only]));
    expect(targets.startup.value).toBeNull();
    expect(targets['rss-per-document'].value).toBeNull();
  });
});

describe('scaleMarkdown', () => {
  const settings = { starts: 3, rounds: 3, seconds: 2, connections: 10, slowMs: 250 };
  const empty = each([
    { startupMs: 500, rssBytes: 80 * 2 ** 20 },
    { startupMs: 300, rssBytes: 70 * 2 ** 20 },
    { startupMs: 200, rssBytes: 60 * 2 ** 20 },
  ]);

  it('prints a row per measure and size with the store / json-server 0.17 ratio, and the targets', () => {
    const text = scaleMarkdown({ settings, empty, sizes: [size(100_000), size(1_000_000)] });
    expect(text).toContain('| start-up (ms) | 1,000,000 | 1,000 | 800 | 900 | 1.25x |');
    expect(text).toContain('| get-by-id (req/s) | 100,000 | 5,000 | 1,000 | 2,000 | 5.00x |');
    expect(text).toContain('store serve 500 ms, 80 MB');
    expect(text).toMatch(/✅ Start-up at 1,000,000 documents: 1\.25x/);
  });

  it('marks a measure whose answers differ in its row', () => {
    const differing = size(100_000);
    differing.loads.equality.check = 'mismatch';
    const text = scaleMarkdown({ settings, empty, sizes: [differing] });
    expect(text).toContain('a page of 20 (req/s) (answers differ) | 100,000');
  });
});
