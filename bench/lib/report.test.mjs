import { describe, expect, it } from 'vitest';
import { bestPeer, holdLine, markdown, median, quartiles, summarize } from './report.mjs';

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

  it("prints the store command's server against the limit only in the cases that run both", () => {
    const summary = summarize([
      aCase(
        'equality',
        { store: 10, storeCli: 20, jsonServer: 1, limit: 40 },
        { storeCli: [0.5, 0.5], jsonServer: [10, 10], limit: [0.25, 0.25] },
      ),
      aCase('patch', { store: 10, storeCli: 20, jsonServer: 1 }, { storeCli: [0.5], jsonServer: [10] }),
    ]);
    const text = markdown(summary, META, '');
    expect(text).toContain(
      "- `equality` through the `store` command's own server (plain `node:http`): 20 req/s, / limit: **0.50**; through Express (the store): / limit 0.25",
    );
    expect(text).not.toContain("`patch` through the `store` command's own server");
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
      '| get-by-id | 90 | - | 100 | - | 30 | - | - | - | 1 / - / 1 / - / - / - / - / - | 0.97 ✅ | - | 3.00 ✅ | - | - | - |',
    );
    expect(text).toContain('- store/baseline round by round, lower to upper quartile: get-by-id 0.96-1.00');
    expect(text).toContain('Every target is met.');
  });

  it('prints store serve, json-server v1 and Feathers in their own columns, requests/s, p99 and ratio', () => {
    const summary = summarize([
      {
        ...aCase(
          'range-sort',
          { store: 600, storeCli: 900, baseline: 620, jsonServer: 40, jsonServerV1: 100, feathers: 200 },
          {
            storeCli: [0.66, 0.66],
            baseline: [1, 1],
            jsonServer: [15, 15],
            jsonServerV1: [6, 6],
            feathers: [3, 3],
          },
        ),
        p99ms: { store: 2, storeCli: 1, baseline: 2, jsonServer: 90, jsonServerV1: 40, feathers: 20 },
      },
    ]);
    const text = markdown(summary, META, '');
    expect(text).toContain(
      '| case | store rps | store serve rps | baseline rps | floor rps | json-server rps | json-server v1 rps | feathers rps | limit rps | p99 ms (store / store serve / baseline / floor / json-server / json-server v1 / feathers / limit) |',
    );
    expect(text).toContain(
      '| range-sort | 600 | 900 | 620 | - | 40 | 100 | 200 | - | 2 / 1 / 2 / - / 90 / 40 / 20 / - | 1.00 ✅ | - | 15.00 ✅ | 6.00 | 3.00 | - |',
    );
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

describe('the store, as `store serve` serves it, against the best of json-server 0.17, json-server v1 and Feathers', () => {
  const PEERS_RPS = {
    store: 100,
    storeCli: 100,
    baseline: 100,
    jsonServer: 25,
    jsonServerV1: 45,
    feathers: 50,
  };
  /** Round ratios where `store serve` answers as fast as the store in Express (store/storeCli 1). */
  const sameServers = (rounds) => ({ ...rounds, storeCli: rounds.baseline.map(() => 1) });

  it("rates store serve against the fastest peer of each round, from the store's round ratios", () => {
    // store serve twice as fast as the store in Express in every round (store/storeCli 0.5).
    const rounds = {
      storeCli: [0.5, 0.5, 0.5],
      baseline: [1, 1, 1],
      jsonServer: [2, 2, 2],
      jsonServerV1: [1.5, 0.75, 1.25],
      feathers: [1.1, 1.05, 0.9],
    };
    const c = aCase('get-by-id', { ...PEERS_RPS, storeCli: 200 }, rounds);
    // store serve / peer, round by round: json-server v1 3, 1.5, 2.5; Feathers 2.2, 2.1, 1.8;
    // the fastest peer of each round 2.2 (Feathers), 1.5 (json-server v1), 1.8 (Feathers).
    expect(bestPeer(c)).toMatchObject({ subject: 'storeCli', peer: 'feathers' });
    expect(bestPeer(c).ratio).toBeCloseTo(1.8);
    // The store in Express: 1.1, 0.75, 0.9.
    expect(bestPeer(c, 'store')).toMatchObject({ subject: 'store', peer: 'feathers', ratio: 0.9 });
    const summary = summarize([c]);
    expect(summary.cases[0].ratios).toMatchObject({
      bestPeer: 'feathers',
      bestPeerSubject: 'storeCli',
      expressOverBestPeer: 0.9,
      expressBestPeer: 'feathers',
    });
    expect(summary.missed).toEqual(['get-by-id: store serve/best peer 1.80']);
    expect(markdown(summary, META, '')).toContain(
      '- `get-by-id` store serve / best peer (Feathers, 50 req/s; json-server 0.17 25, json-server v1 45) (>= 2): **1.80** ❌; ' +
        'the store in Express / best peer (Feathers): 0.90',
    );
  });

  it('holds store serve to the target, and only reports the store in Express beside it', () => {
    // store serve 1.2x Feathers, the store in Express 0.8x of it: the target (>= 1) is met.
    const create = aCase(
      'create',
      { ...PEERS_RPS, storeCli: 150 },
      { storeCli: [0.6667], baseline: [1], jsonServer: [3], jsonServerV1: [2], feathers: [0.8] },
    );
    const summary = summarize([create]);
    expect(summary.missed).toEqual([]);
    expect(markdown(summary, META, '')).toContain(
      '- `create` store serve / best peer (Feathers, 50 req/s; json-server 0.17 25, json-server v1 45) (>= 1): **1.20** ✅; ' +
        'the store in Express / best peer (Feathers): 0.80',
    );
    // The other way round (store serve the slower of the two): missed, by store serve's ratio.
    const slower = aCase(
      'create',
      { ...PEERS_RPS, storeCli: 60 },
      { storeCli: [1.5], baseline: [1], jsonServer: [3], jsonServerV1: [2], feathers: [1.2] },
    );
    expect(summarize([slower]).missed).toEqual(['create: store serve/best peer 0.80']);
  });

  it('holds every read case, equality and contains included, to 2x the best peer and a write case to 1x', () => {
    // json-server 0.17 far behind (its own targets met): the best peer is json-server v1.
    const at = (ratio) =>
      sameServers({
        baseline: [1],
        jsonServer: [20],
        jsonServerV1: [ratio],
        feathers: [ratio * 3],
      });
    const cases = [
      'get-by-id',
      'get-by-id-100k',
      'equality',
      'contains',
      'list-filter',
      'list-filter-100k',
      'count',
      'range-sort',
      'range-sort-indexed',
      'populate',
    ].map((name) => aCase(name, PEERS_RPS, at(1.5)));
    const writes = ['create', 'patch'].map((name) => aCase(name, PEERS_RPS, at(1.5)));
    const { missed } = summarize([...cases, ...writes]);
    expect(missed).toEqual(cases.map(({ name }) => `${name}: store serve/best peer 1.50`));
    const met = summarize([
      aCase('equality', PEERS_RPS, at(2)),
      aCase('contains', PEERS_RPS, at(2)),
      aCase('patch', PEERS_RPS, at(1)),
    ]);
    expect(met.missed).toEqual([]);
    expect(summarize([aCase('patch', PEERS_RPS, at(0.9))]).missed).toEqual([
      'patch: store serve/best peer 0.90',
    ]);
  });

  it('states both targets in the report, on store serve, and prints a met one', () => {
    const summary = summarize([
      aCase(
        'create',
        PEERS_RPS,
        sameServers({ baseline: [1], jsonServer: [3], jsonServerV1: [1.2], feathers: [2] }),
      ),
    ]);
    const text = markdown(summary, META, '');
    expect(text).toContain(
      'store serve/best peer (the store as the `store serve` command serves it, in memory / the fastest of json-server 0.17, json-server v1, Feathers on the case) ' +
        '>= 2 on every read case (get-by-id, get-by-id-100k, equality, contains, list-filter, list-filter-100k, count, range-sort, range-sort-indexed, populate), ' +
        '>= 1 on every case.',
    );
    expect(text).toContain(
      '- `create` store serve / best peer (json-server v1, 45 req/s; json-server 0.17 25, Feathers 50) (>= 1): **1.20** ✅; ' +
        'the store in Express / best peer (json-server v1): 1.20',
    );
    expect(text).toContain('Every target is met.');
  });

  it('falls back to the store in Express, named so, where store serve did not run the case', () => {
    const populate = aCase(
      'populate',
      { store: 90, baseline: 90, jsonServer: 3, jsonServerV1: 1, feathers: null },
      { baseline: [1, 1], jsonServer: [1.5, 1.4], jsonServerV1: [90, 95] },
    );
    expect(bestPeer(populate)).toEqual({ subject: 'store', peer: 'jsonServer', ratio: 1.45 });
    expect(bestPeer(populate, 'storeCli')).toBeNull();
    const summary = summarize([populate]);
    expect(summary.missed).toEqual([
      'populate: store/json-server 1.45',
      'populate: the store in Express/best peer 1.45',
    ]);
    expect(markdown(summary, META, '')).toContain(
      '- `populate` the store in Express / best peer (json-server 0.17, 3 req/s; json-server v1 1) (>= 2): **1.45** ❌ (store serve did not run it)',
    );
  });

  it('leaves out the peers that do not run a case, and a case that none runs', () => {
    const populate = aCase(
      'populate',
      { store: 90, storeCli: 90, baseline: 90, jsonServer: 3, jsonServerV1: 1, feathers: null },
      { storeCli: [1, 1], baseline: [1, 1], jsonServer: [30, 28], jsonServerV1: [90, 95] },
    );
    const total = aCase('total', { store: 90, reference: 100 }, { reference: [0.9] });
    expect(bestPeer(populate)).toEqual({ subject: 'storeCli', peer: 'jsonServer', ratio: 29 });
    expect(bestPeer(total)).toBeNull();
    const text = markdown(summarize([populate, total]), META, '');
    expect(text).toContain(
      '- `populate` store serve / best peer (json-server 0.17, 3 req/s; json-server v1 1) (>= 2): **29.00** ✅; ' +
        'the store in Express / best peer (json-server 0.17): 29.00',
    );
    expect(text).not.toContain('`total` store serve / best peer');
    expect(text).not.toContain('`total` the store in Express / best peer');
  });

  it('falls back to the totals when the peers have no rounds', () => {
    const c = aCase('count', { store: 100, storeCli: 150, jsonServer: 20, feathers: 40 });
    expect(bestPeer(c)).toEqual({ subject: 'storeCli', peer: 'feathers', ratio: 3.75 });
    expect(bestPeer(c, 'store')).toEqual({ subject: 'store', peer: 'feathers', ratio: 2.5 });
  });
});

describe('one heavy request against the other clients (bench/hold.mjs)', () => {
  const SETTINGS = {
    posts: 100_000,
    albums: 1000,
    perAlbum: 10,
    photoBytes: 46_080,
    seconds: 5,
    maxBulk: null,
  };
  const aRow = (id, duringP99, heavy, more = {}) => ({
    id,
    label: `the \`${id}\` request`,
    idle: { count: 4000, p50: 0.5, p99: 1.25 },
    during: { count: 120, p50: 1, p99: duringP99 },
    ratio: duringP99 === null ? null : duringP99 / 1.25,
    heavy,
    otherFailures: 0,
    otherStatuses: [],
    serverExited: null,
    memory: { rss: 200 * 2 ** 20, maxRss: 700 * 2 ** 20 },
    ...more,
  });
  const refused = {
    status: 422,
    code: 'budget_exceeded',
    count: 12,
    medianMs: 40.4,
    maxMs: 52,
    bytes: 300,
    detail: null,
  };

  it("prints the other client's p99 ratio against its target and the heavy request's refusal", () => {
    const summary = summarize([], undefined, undefined, {
      settings: SETTINGS,
      rows: [aRow('regex-or', 5, [refused])],
    });
    expect(summary.missed).toEqual([]);
    const text = markdown(summary, META, '');
    expect(text).toContain('(`node bench/hold.mjs`: 100,000 posts, 1,000 albums of 10 photos of 45 kB;');
    expect(text).toContain(
      "  - other client's p99 during the `regex-or` request / idle p99: **4.0** (5.00 ms over 120 requests / 1.25 ms over 4,000; " +
        'p99 <= 50 ms ✅); the heavy request: 422 budget_exceeded in 40 ms (median of 12); server RSS peak 700 MiB',
    );
  });

  it('misses the target when the other client waits longer than the bound, whatever the idle p99', () => {
    const done = {
      status: 200,
      code: null,
      count: 3,
      medianMs: 2400,
      maxMs: 2600,
      bytes: 40,
      detail: 'modified 50,000',
    };
    const summary = summarize([], undefined, undefined, {
      settings: SETTINGS,
      rows: [aRow('bulk-patch', 2350.5, [done])],
    });
    expect(summary.missed).toEqual([
      "hold bulk-patch: the other client's p99 2350.5 ms during the heavy request",
    ]);
    expect(holdLine(summary.hold.rows[0])).toContain(
      'p99 <= 50 ms ❌); the heavy request: 200 in 2,400 ms (median of 3, modified 50,000)',
    );
  });

  it('misses the target when the heavy request fails or the server dies, but not on a time budget', () => {
    const timeout = {
      status: 503,
      code: 'query_timeout',
      count: 1,
      medianMs: 5000,
      maxMs: 5000,
      bytes: 200,
      detail: null,
    };
    const crash = {
      status: 0,
      code: 'TypeError',
      count: 1,
      medianMs: 3100,
      maxMs: 3100,
      bytes: 0,
      detail: null,
    };
    const rows = [
      aRow('or-contains-total', 4, [timeout]),
      aRow('populate', 20, [crash], {
        serverExited: 'SIGABRT',
        memory: null,
        otherFailures: 7,
        otherStatuses: ['no answer (UND_ERR_SOCKET)'],
      }),
    ];
    const summary = summarize([], undefined, undefined, { settings: SETTINGS, rows });
    expect(summary.missed).toEqual([
      'hold populate: the server process exited (SIGABRT)',
      "hold populate: 7 of the other client's requests failed",
      'hold populate: the heavy request failed, no answer (TypeError) in 3,100 ms',
    ]);
    expect(holdLine(rows[1])).toContain(
      "no answer (TypeError) in 3,100 ms; 7 of the other client's requests failed (no answer (UND_ERR_SOCKET)); the server process exited (SIGABRT)",
    );
  });

  it('says so when the hold benchmark failed', () => {
    const summary = summarize([], undefined, undefined, { error: 'exit 1' });
    expect(summary.missed).toEqual(['hold: failed (exit 1)']);
    expect(markdown(summary, META, '')).toContain('(`node bench/hold.mjs`): failed, exit 1');
  });
});
