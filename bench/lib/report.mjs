// results.json and results.md: the measured figures, their ratios and the targets.

/** The store's ratio to each contender, as results.md's columns name them. */
const COLUMNS = {
  storeOverBaseline: { contender: 'baseline', title: 'store/baseline' },
  storeOverFloor: { contender: 'floor', title: 'store/floor' },
  storeOverJsonServer: { contender: 'jsonServer', title: 'store/json-server' },
  storeOverJsonServerV1: { contender: 'jsonServerV1', title: 'store/json-server v1' },
  storeOverFeathers: { contender: 'feathers', title: 'store/feathers' },
  storeOverLimit: { contender: 'limit', title: 'store/limit' },
};

/** The projects users pick instead of the store, as the report names them. */
const PEERS = { jsonServer: 'json-server 0.17', jsonServerV1: 'json-server v1', feathers: 'Feathers' };

/** The cases that only read: against the best peer they have the higher target. */
const READ_CASES = [
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
];

/**
 * Targets of issue 19, as ratios (at least): per case where they differ, `*` for every other
 * case; a ratio without a target is reported only.
 */
const TARGETS = {
  storeOverBaseline: { '*': 0.95 },
  storeOverFloor: { 'list-filter': 3, count: 3, 'range-sort-indexed': 3 },
  storeOverJsonServer: { 'list-filter': 10, count: 10, 'range-sort-indexed': 10, 'range-sort': 3, '*': 1.5 },
  storeOverJsonServerV1: {},
  storeOverFeathers: {},
  storeOverLimit: {},
  /** The `store` command's own server (plain `node:http`) / the limit. */
  storeCliOverLimit: { 'get-by-id': 0.5 },
  /**
   * The store as its `store serve` command serves it / the fastest of the peers that run the
   * case, round by round (the store in Express where `store serve` did not run the case).
   */
  storeOverBestPeer: { ...Object.fromEntries(READ_CASES.map((name) => [name, 2])), '*': 1 },
};

/** The titles of the ratios that are not a column of the table. */
const TITLES = { storeCliOverLimit: 'store-cli/limit', storeOverBestPeer: 'store serve/best peer' };

/** The servers of the store the best-peer ratio is taken of, as the report names them. */
const SUBJECTS = { storeCli: 'store serve', store: 'the store in Express' };

/** Time at scale / time at the smaller size (store), at most `atMost`. */
const SCALINGS = [
  { small: 'get-by-id', large: 'get-by-id-100k', label: '`get-by-id` time at 100,000 documents / at 1,000' },
  {
    small: 'list-filter',
    large: 'list-filter-100k',
    label: '`list-filter` time at 100,000 documents (`n` indexed) / at 10,000',
  },
].map((scaling) => ({ ...scaling, atMost: 1.5 }));

const COMPILE_OVER_AQP = 1;

/**
 * bench/hold.mjs: the other client's p99 (ms) while a heavy request runs, at most this
 * (bench/findings.md says why an absolute bound and not a ratio to the idle p99).
 */
const HOLD_P99_AT_MOST_MS = 50;

/** A case's name without its engine (`list-filter (mongodb)`): targets are per case. */
const baseName = (name) => name.split(' ')[0];
const targetOf = (kind, name) => TARGETS[kind][baseName(name)] ?? TARGETS[kind]['*'] ?? null;

const ratio = (a, b) => (a === null || a === undefined || !b ? null : a / b);

/** The median of a non-empty list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The store's ratio to a contender: the median of its round-by-round ratios (a round runs the
 * contenders back to back, so a slow spell of a shared machine weighs on both sides of it), or
 * the ratio of the totals for results without rounds.
 */
function storeOver(c, contender) {
  const rounds = c.roundRatios?.[contender];
  if (rounds?.length > 0) return median(rounds);
  return ratio(c.rps.store, c.rps[contender]);
}

/**
 * `subject`'s round-by-round ratios to `contender`: the store's as measured, the `store`
 * command's (`storeCli`) as (store/contender) / (store/storeCli); none without both.
 */
function roundsOver(c, subject, contender) {
  const overContender = c.roundRatios?.[contender] ?? [];
  if (subject === 'store') return overContender;
  const overSubject = c.roundRatios?.[subject] ?? [];
  if (!(overContender.length > 0 && overSubject.length === overContender.length)) return [];
  return overContender.map((value, i) => value / overSubject[i]);
}

/** `subject` / `contender`: the median of the round-by-round ratios, else the ratio of the totals. */
function over(c, subject, contender) {
  const rounds = roundsOver(c, subject, contender);
  return rounds.length > 0 ? median(rounds) : ratio(c.rps[subject], c.rps[contender]);
}

/** The `store` command's server / the limit, round by round: (store/limit) / (store/storeCli). */
const storeCliOverLimit = (c) => over(c, 'storeCli', 'limit');

const ran = (c, contender) => c.rps[contender] !== null && c.rps[contender] !== undefined;

const fixed = (value, digits = 2) => (value === null || value === undefined ? '-' : value.toFixed(digits));
const whole = (value) =>
  value === null || value === undefined ? '-' : Math.round(value).toLocaleString('en-US');
const verdict = (value, target, atMost = false) => {
  if (value === null || value === undefined || target === null) return '';
  return (atMost ? value <= target : value >= target) ? ' ✅' : ' ❌';
};

/**
 * The store against the fastest of the peers that run the case. `subject` is the store's server
 * compared: by default the `store serve` command's (`storeCli`) when it ran the case, else the
 * store in Express. `peer` is the one the subject leads by the least, `ratio` the median over
 * rounds of the subject / the fastest peer of that round (the ratio of the totals for results
 * without rounds); `null` without a peer, or when the subject did not run the case.
 */
export function bestPeer(c, subject = ran(c, 'storeCli') ? 'storeCli' : 'store') {
  const peers = Object.keys(PEERS).filter((name) => ran(c, name));
  if (peers.length === 0 || !ran(c, subject)) return null;
  const peer = peers.reduce((best, name) => (over(c, subject, name) < over(c, subject, best) ? name : best));
  const rounds = peers.map((name) => roundsOver(c, subject, name));
  const length = rounds[0].length;
  const everyRound = length > 0 && rounds.every((each) => each.length === length);
  const ratio = everyRound
    ? median(Array.from({ length }, (_, i) => Math.min(...rounds.map((each) => each[i]))))
    : over(c, subject, peer);
  return { subject, peer, ratio };
}

function ratiosOf(c) {
  const ratios = Object.fromEntries(
    Object.entries(COLUMNS).map(([kind, { contender }]) => [kind, storeOver(c, contender)]),
  );
  const best = bestPeer(c);
  // The store in Express against the same peers, reported beside `store serve`'s.
  const express = best?.subject === 'storeCli' ? bestPeer(c, 'store') : best;
  return {
    ...ratios,
    storeCliOverLimit: storeCliOverLimit(c),
    storeOverBestPeer: best?.ratio ?? null,
    bestPeer: best?.peer ?? null,
    bestPeerSubject: best?.subject ?? null,
    expressOverBestPeer: express?.ratio ?? null,
    expressBestPeer: express?.peer ?? null,
  };
}

/** A ratio's title in the targets missed: the best-peer one names the store's server it rates. */
const titleOf = (kind, c) =>
  kind === 'storeOverBestPeer' && c.ratios.bestPeerSubject === 'store'
    ? `${SUBJECTS.store}/best peer`
    : (COLUMNS[kind]?.title ?? TITLES[kind]);

/** The targets a case misses, one line each. */
function missedBy(c) {
  const missed = [];
  for (const kind of Object.keys(TARGETS)) {
    const value = c.ratios[kind];
    const target = targetOf(kind, c.name);
    if (value !== null && value !== undefined && target !== null && value < target) {
      missed.push(`${c.name}: ${titleOf(kind, c)} ${fixed(value)}`);
    }
  }
  if (c.check !== 'ok') missed.push(`${c.name}: answers differ (${c.check})`);
  if (c.failures > 0) missed.push(`${c.name}: ${c.failures} failed requests`);
  return missed;
}

const ms = (value) =>
  value === null || value === undefined ? '-' : `${value.toFixed(value < 10 ? 2 : 1)} ms`;

/** Whether a heavy request's outcome is a failure: no answer, or a 5xx other than a time budget's 503. */
const heavyFailed = ({ status, code }) =>
  status === 0 || (status >= 500 && !(status === 503 && code === 'query_timeout'));

/** A heavy request's outcomes in words: `422 budget_exceeded in 40 ms (median of 12)`. */
function heavyWords(heavy) {
  return heavy
    .map(({ status, code, count, medianMs, bytes, detail }) => {
      const what = status === 0 ? `no answer (${code})` : `${status}${code ? ` ${code}` : ''}`;
      const size = status < 300 && bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(0)} MiB` : null;
      const notes = [count > 1 ? `median of ${count}` : null, detail, size].filter(Boolean);
      return `${what} in ${whole(medianMs)} ms${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
    })
    .join('; ');
}

/**
 * One heavy request's row of bench/hold.mjs: the other client's p99 during it / idle, against
 * the target, and the heavy request's own outcome.
 */
export function holdLine(row) {
  const { label, idle, during, ratio, heavy, otherFailures, otherStatuses = [] } = row;
  const { serverExited = null, memory = null } = row;
  const met = during.p99 === null ? '' : verdict(during.p99, HOLD_P99_AT_MOST_MS, true);
  const notes = [
    otherFailures > 0
      ? `${otherFailures} of the other client's requests failed (${otherStatuses.join(', ')})`
      : null,
    serverExited === null ? null : `the server process exited (${serverExited})`,
    memory === null ? null : `server RSS peak ${whole(memory.maxRss / 2 ** 20)} MiB`,
  ].filter(Boolean);
  return (
    `other client's p99 during ${label} / idle p99: **${fixed(ratio, 1)}** ` +
    `(${ms(during.p99)} over ${whole(during.count)} requests / ${ms(idle.p99)} over ${whole(idle.count)}; ` +
    `p99 <= ${HOLD_P99_AT_MOST_MS} ms${met}); the heavy request: ${heavyWords(heavy)}` +
    notes.map((note) => `; ${note}`).join('')
  );
}

/** The targets bench/hold.mjs's rows miss, one line each. */
function holdMissed(hold) {
  if (hold === undefined) return [];
  if (hold.error !== undefined) return [`hold: failed (${hold.error})`];
  return hold.rows.flatMap(({ id, during, heavy, otherFailures, serverExited = null }) => {
    const missed = [];
    if (serverExited !== null) missed.push(`hold ${id}: the server process exited (${serverExited})`);
    if (during.p99 === null) missed.push(`hold ${id}: no request of the other client overlapped it`);
    else if (during.p99 > HOLD_P99_AT_MOST_MS)
      missed.push(`hold ${id}: the other client's p99 ${ms(during.p99)} during the heavy request`);
    if (otherFailures > 0) missed.push(`hold ${id}: ${otherFailures} of the other client's requests failed`);
    const failed = heavy.filter(heavyFailed);
    if (failed.length > 0) missed.push(`hold ${id}: the heavy request failed, ${heavyWords(failed)}`);
    return missed;
  });
}

/**
 * Each case with its ratios; the scalings, self costs and compile ratio; the targets missed;
 * `realtime` (bench/realtime-memory.mjs's figures) and `hold` (bench/hold.mjs's rows) as measured.
 */
export function summarize(cases, compile, realtime, hold) {
  const withRatios = cases.map((c) => ({ ...c, ratios: ratiosOf(c) }));
  const byName = (name) => withRatios.find((c) => c.name === name);
  const missed = withRatios.flatMap(missedBy);
  const selfCosts = withRatios
    .filter((c) => c.roundRatios?.reference?.length > 0)
    .map((c) => {
      const byRounds = 1 / median(c.roundRatios.reference);
      // A round with no answer at all (a very slow request) has no ratio: then the totals'.
      const cost = Number.isFinite(byRounds) && byRounds > 0 ? byRounds : ratio(c.rps.reference, c.rps.store);
      // A throughput target (requests/s at least a share of the reference's) is a time bound too.
      const atLeast = c.throughputAtLeast ?? null;
      const atMost = atLeast === null ? (c.costAtMost ?? null) : 1 / atLeast;
      return { name: c.name, cost, atMost, atLeast, subscribers: c.subscribers ?? null };
    });
  for (const { name, cost, atMost, atLeast } of selfCosts) {
    if (atMost === null || cost <= atMost) continue;
    missed.push(
      atLeast === null
        ? `${name}: time / reference ${fixed(cost)}`
        : `${name}: throughput / reference ${fixed(1 / cost)}`,
    );
  }
  const scalings = SCALINGS.map(({ small, large, label, atMost }) => ({
    name: large,
    label,
    atMost,
    value: byName(small) && byName(large) ? ratio(byName(small).rps.store, byName(large).rps.store) : null,
  }));
  for (const { name, value, atMost } of scalings) {
    if (value !== null && value > atMost) missed.push(`${name}: time / at the smaller size ${fixed(value)}`);
  }
  if (realtime?.error !== undefined) missed.push(`realtime memory: failed (${realtime.error})`);
  missed.push(...holdMissed(hold));
  if (compile?.ratio !== undefined && compile.ratio < COMPILE_OVER_AQP)
    missed.push(`compile: @store/query / api-query-params ${fixed(compile.ratio)}`);
  return { cases: withRatios, scalings, compile, selfCosts, realtime, hold, missed };
}

/** The lower and upper quartiles of a list of numbers (nearest rank). */
export function quartiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return [at(0.25), at(0.75)];
}

/** How far the round-by-round store/baseline ratios spread in each case (results with rounds only). */
function spreadLine(cases) {
  const spreads = cases
    .filter((c) => c.roundRatios?.baseline?.length > 1)
    .map((c) => {
      const [low, high] = quartiles(c.roundRatios.baseline);
      return `${c.name} ${fixed(low)}-${fixed(high)}`;
    });
  return spreads.length === 0
    ? []
    : [`- store/baseline round by round, lower to upper quartile: ${spreads.join(', ')}`];
}

/** Every contender, in the order of the table's requests/s and p99 columns (run.mjs runs them in it). */
export const MEASURED = [
  'store',
  'storeCli',
  'baseline',
  'floor',
  'jsonServer',
  'jsonServerV1',
  'feathers',
  'limit',
];

function caseRows(cases) {
  return cases.map((c) => {
    const { rps, p99ms, ratios } = c;
    const cells = [
      c.name,
      ...MEASURED.map((name) => whole(rps[name])),
      MEASURED.map((name) => fixed(p99ms[name], 0)).join(' / '),
      ...Object.keys(COLUMNS).map(
        (kind) => fixed(ratios[kind]) + verdict(ratios[kind], targetOf(kind, c.name)),
      ),
    ];
    return `| ${cells.join(' | ')} |`;
  });
}

/** One target of `TARGETS` in words: `>= 0.95 on every case`, `>= 10 on list-filter, count; ...`. */
function targetWords(kind) {
  const byValue = new Map();
  for (const [name, value] of Object.entries(TARGETS[kind])) {
    if (name !== '*') byValue.set(value, [...(byValue.get(value) ?? []), name]);
  }
  const parts = [...byValue].map(([value, names]) => `>= ${value} on ${names.join(', ')}`);
  const other = TARGETS[kind]['*'];
  if (other !== undefined) parts.push(`>= ${other} ${parts.length === 0 ? 'on every case' : 'elsewhere'}`);
  return parts.length === 0 ? 'reported' : parts.join(', ');
}

/**
 * The store against the fastest peer, per case that runs one, and its target: `store serve`'s
 * ratio, then the store in Express's for information (or the latter alone, against the target,
 * where `store serve` did not run the case).
 */
function bestPeerLines(cases) {
  return cases
    .filter((c) => c.ratios.bestPeer !== null && c.ratios.bestPeer !== undefined)
    .map((c) => {
      const { bestPeer: peer, storeOverBestPeer: value, bestPeerSubject: subject } = c.ratios;
      const target = targetOf('storeOverBestPeer', c.name);
      const others = Object.keys(PEERS).filter((name) => name !== peer && ran(c, name));
      const also = others.map((name) => `${PEERS[name]} ${whole(c.rps[name])}`).join(', ');
      const express =
        subject === 'store'
          ? ` (${SUBJECTS.storeCli} did not run it)`
          : `; ${SUBJECTS.store} / best peer (${PEERS[c.ratios.expressBestPeer]}): ${fixed(c.ratios.expressOverBestPeer)}`;
      return (
        `- \`${c.name}\` ${SUBJECTS[subject]} / best peer (${PEERS[peer]}, ${whole(c.rps[peer])} req/s${also ? `; ${also}` : ''}) ` +
        `(>= ${target}): **${fixed(value)}**${verdict(value, target)}${express}`
      );
    });
}

/** The best-peer target in words: the read cases' and the others'. */
const bestPeerTargetWords = () =>
  `store serve/best peer (the store as the \`store serve\` command serves it, in memory / the fastest of ${Object.values(PEERS).join(', ')} on the case) ` +
  `>= ${TARGETS.storeOverBestPeer[READ_CASES[0]]} on every read case (${READ_CASES.join(', ')}), >= ${TARGETS.storeOverBestPeer['*']} on every case`;

/** The `store` command's server against the limit, per case that runs both. */
function storeCliLines(cases) {
  return cases
    .filter((c) => ran(c, 'storeCli') && ran(c, 'limit'))
    .map((c) => {
      const target = targetOf('storeCliOverLimit', c.name);
      return (
        `- \`${c.name}\` through the \`store\` command's own server (plain \`node:http\`): ${whole(c.rps.storeCli)} req/s, ` +
        `/ limit${target === null ? '' : ` (>= ${target})`}: **${fixed(c.ratios.storeCliOverLimit)}**` +
        `${verdict(c.ratios.storeCliOverLimit, target)}; through Express (the store): / limit ${fixed(c.ratios.storeOverLimit)}`
      );
    });
}

function selfCostLine({ name, cost, atMost, atLeast = null, subscribers = null }) {
  if (atLeast !== null) {
    const streams = subscribers === null ? 'event streams' : `${whole(subscribers)} idle event streams`;
    return (
      `- \`${name}\` requests/s with ${streams} attached / on a store with none (>= ${atLeast}): ` +
      `**${fixed(1 / cost)}**${verdict(1 / cost, atLeast)} (time ratio ${fixed(cost)})`
    );
  }
  const bounded = atMost !== null && atMost !== Number.POSITIVE_INFINITY;
  return (
    `- \`${name}\` time / its reference request on the store (${bounded ? `<= ${atMost}` : 'no target'}): ` +
    `**${fixed(cost)}**${bounded ? verdict(cost, atMost, true) : ''}`
  );
}

/** bench/realtime-memory.mjs's figures: one line, its settings, then one line per figure. */
function realtimeLines(realtime) {
  if (realtime === undefined) return [];
  if (realtime.error !== undefined)
    return [`- realtime memory (\`node bench/realtime-memory.mjs\`): failed, ${realtime.error}`];
  const { streams, reconnects, writes, patches, kb } = realtime.settings;
  return [
    `- the store server's memory after GC with event streams (\`node bench/realtime-memory.mjs\`: ${whole(streams)} idle ` +
      `streams; ${whole(reconnects)} reconnects after ${whole(writes)} writes; a ${kb} kB document patched up to ${whole(patches)} times):`,
    ...Object.entries(realtime.figures).map(
      ([figure, value]) => `  - ${figure}: ${Math.abs(value) >= 100 ? whole(value) : fixed(value)}`,
    ),
  ];
}

/** bench/hold.mjs's rows: one line with its settings, then one line per heavy request. */
function holdLines(hold) {
  if (hold === undefined) return [];
  if (hold.error !== undefined)
    return [`- one heavy request against the others (\`node bench/hold.mjs\`): failed, ${hold.error}`];
  const { posts, albums, perAlbum, photoBytes, seconds, maxBulk } = hold.settings;
  return [
    `- one heavy request against the others (\`node bench/hold.mjs\`: ${whole(posts)} posts, ${whole(albums)} albums ` +
      `of ${perAlbum} photos of ${Math.round(photoBytes / 1024)} kB; a second client's sequential \`GET /posts/<id>\`, ` +
      `idle for ${seconds} s, then while the heavy request repeats for at least ${seconds} s; ` +
      `${maxBulk === null ? "the store's default options" : `\`maxBulk: ${maxBulk}\``}):`,
    ...hold.rows.map((row) => `  - ${holdLine(row)}`),
  ];
}

/** The markdown table (and the notes kept in `findings.md`). */
export function markdown(summary, meta, findings) {
  const { cases, scalings = [], compile, selfCosts = [], realtime, hold, missed } = summary;
  const titles = Object.values(COLUMNS).map(({ title }) => title);
  const lines = [
    '# Benchmark results',
    '',
    `Generated by \`pnpm bench${meta.quick ? ' --quick' : ''}\` on ${meta.date} (commit ${meta.commit}),`,
    `Node ${meta.node}, ${meta.cpus} CPUs, ${meta.connections} connections, ${meta.rounds} round(s) of ${meta.seconds} s`,
    `per contender after ${meta.warmup} s of warm-up, contenders alternating. Absolute figures are noisy on a`,
    'shared machine; the ratios, measured in the same run, are what count. Requests/s are over all rounds;',
    'each ratio is the median of the round-by-round ratios (a round runs the contenders back to back).',
    '`store` is the store mounted in Express (the `store/...` columns), `store serve` the store as its',
    '`store serve` command serves it, in memory (plain `node:http`; the best-peer target).',
    '',
    `Targets: ${Object.entries(COLUMNS)
      .map(([kind, { title }]) => `${title} ${targetWords(kind)}`)
      .join('; ')}; ${bestPeerTargetWords()}.`,
    '',
    `| case | store rps | store serve rps | baseline rps | floor rps | json-server rps | json-server v1 rps | feathers rps | limit rps | p99 ms (store / store serve / baseline / floor / json-server / json-server v1 / feathers / limit) | ${titles.join(' | ')} |`,
    `| --- | ${[...MEASURED, 'p99', ...titles].map(() => '---:').join(' | ')} |`,
    ...caseRows(cases),
    '',
    ...scalings.map(
      ({ label, value, atMost }) =>
        `- ${label} (store, <= ${atMost}): **${fixed(value)}**${verdict(value, atMost, true)}`,
    ),
    ...bestPeerLines(cases),
    ...storeCliLines(cases),
    compile
      ? `- \`@store/query\` compiles / \`api-query-params\` compiles (>= ${COMPILE_OVER_AQP}): **${fixed(compile.ratio)}**` +
        `${verdict(compile.ratio, COMPILE_OVER_AQP)} (${whole(compile.ours)} vs ${whole(compile.theirs)} compiles/s)`
      : '- compile benchmark not run',
    ...selfCosts.map(selfCostLine),
    ...cases
      .filter((c) => c.latency)
      .map(
        ({ name, latency: { writes, write, event } }) =>
          `- \`${name}\` event latency over ${writes} sequential watched writes: write (request sent to answer) ` +
          `p50 ${fixed(write.p50)} ms / p99 ${fixed(write.p99)} ms; event (answer to event received) ` +
          `p50 ${fixed(event.p50)} ms / p99 ${fixed(event.p99)} ms`,
      ),
    ...realtimeLines(realtime),
    ...holdLines(hold),
    ...spreadLine(cases),
    ...(meta.unindexed
      ? [
          '- unindexed: the store had no `indexes` resource option at this commit, so `range-sort-indexed` and `list-filter-100k` ran unindexed on the store (the baseline indexed `n`)',
        ]
      : []),
    ...meta.skipped.map((reason) => `- skipped: ${reason}`),
    '',
    missed.length === 0 ? 'Every target is met.' : `Targets missed: ${missed.join('; ')}.`,
  ];
  if (findings) lines.push('', findings.trim());
  return `${lines.join('\n')}\n`;
}
