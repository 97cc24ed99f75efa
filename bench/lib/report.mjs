// results.json and results.md: the measured figures, their ratios and the targets.

/** Targets of issue 8, as ratios. */
const TARGETS = {
  storeOverBaseline: 0.85,
  storeOverJsonServer: 1.5,
  getById100kOver1k: 1.5,
  compileOverAqp: 1,
};

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
const fixed = (value, digits = 2) => (value === null || value === undefined ? '-' : value.toFixed(digits));
const whole = (value) =>
  value === null || value === undefined ? '-' : Math.round(value).toLocaleString('en-US');
const verdict = (value, target, atMost = false) => {
  if (value === null) return '';
  return (atMost ? value <= target : value >= target) ? ' ✅' : ' ❌';
};

/** Each case with its ratios; the `get-by-id` scaling and compile ratios; the targets missed. */
export function summarize(cases, compile) {
  const withRatios = cases.map((c) => ({
    ...c,
    ratios: {
      storeOverBaseline: storeOver(c, 'baseline'),
      storeOverJsonServer: storeOver(c, 'jsonServer'),
    },
  }));
  const byName = (name) => withRatios.find((c) => c.name === name);
  const small = byName('get-by-id');
  const large = byName('get-by-id-100k');
  const scaling = small && large ? ratio(small.rps.store, large.rps.store) : null;
  const missed = [];
  for (const c of withRatios) {
    if (c.ratios.storeOverBaseline !== null && c.ratios.storeOverBaseline < TARGETS.storeOverBaseline)
      missed.push(`${c.name}: store/baseline ${fixed(c.ratios.storeOverBaseline)}`);
    if (c.ratios.storeOverJsonServer !== null && c.ratios.storeOverJsonServer < TARGETS.storeOverJsonServer)
      missed.push(`${c.name}: store/json-server ${fixed(c.ratios.storeOverJsonServer)}`);
    if (c.check !== 'ok') missed.push(`${c.name}: answers differ (${c.check})`);
    if (c.failures > 0) missed.push(`${c.name}: ${c.failures} failed requests`);
  }
  const selfCosts = withRatios
    .filter((c) => c.roundRatios?.reference?.length > 0)
    .map((c) => {
      const byRounds = 1 / median(c.roundRatios.reference);
      // A round with no answer at all (a very slow request) has no ratio: then the totals'.
      const cost = Number.isFinite(byRounds) && byRounds > 0 ? byRounds : ratio(c.rps.reference, c.rps.store);
      return { name: c.name, cost, atMost: c.costAtMost ?? null };
    });
  for (const { name, cost, atMost } of selfCosts) {
    if (atMost !== null && cost > atMost) missed.push(`${name}: time / reference ${fixed(cost)}`);
  }
  if (scaling !== null && scaling > TARGETS.getById100kOver1k)
    missed.push(`get-by-id: time at 100k / at 1k ${fixed(scaling)}`);
  if (compile?.ratio !== undefined && compile.ratio < TARGETS.compileOverAqp)
    missed.push(`compile: @store/query / api-query-params ${fixed(compile.ratio)}`);
  return { cases: withRatios, getById100kOver1k: scaling, compile, selfCosts, missed };
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

function caseRows(cases) {
  return cases.map((c) => {
    const { rps, p99ms, ratios } = c;
    const cells = [
      c.name,
      whole(rps.store),
      whole(rps.baseline),
      whole(rps.jsonServer),
      `${fixed(p99ms.store, 0)} / ${fixed(p99ms.baseline, 0)} / ${fixed(p99ms.jsonServer, 0)}`,
      fixed(ratios.storeOverBaseline) + verdict(ratios.storeOverBaseline, TARGETS.storeOverBaseline),
      fixed(ratios.storeOverJsonServer) + verdict(ratios.storeOverJsonServer, TARGETS.storeOverJsonServer),
    ];
    return `| ${cells.join(' | ')} |`;
  });
}

/** The markdown table (and the notes kept in `findings.md`). */
export function markdown(summary, meta, findings) {
  const { cases, getById100kOver1k, compile, selfCosts = [], missed } = summary;
  const lines = [
    '# Benchmark results',
    '',
    `Generated by \`pnpm bench${meta.quick ? ' --quick' : ''}\` on ${meta.date} (commit ${meta.commit}),`,
    `Node ${meta.node}, ${meta.cpus} CPUs, ${meta.connections} connections, ${meta.rounds} round(s) of ${meta.seconds} s`,
    `per contender after ${meta.warmup} s of warm-up, contenders alternating. Absolute figures are noisy on a`,
    'shared machine; the ratios, measured in the same run, are what count. Requests/s are over all rounds;',
    'each ratio is the median of the round-by-round ratios (a round runs the contenders back to back).',
    '',
    '| case | store rps | baseline rps | json-server rps | p99 ms (store / baseline / json-server) | store/baseline (>= 0.85) | store/json-server (>= 1.5) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...caseRows(cases),
    '',
    `- \`get-by-id\` time at 100,000 documents / at 1,000 (store, <= ${TARGETS.getById100kOver1k}): ` +
      `**${fixed(getById100kOver1k)}**${verdict(getById100kOver1k, TARGETS.getById100kOver1k, true)}`,
    compile
      ? `- \`@store/query\` compiles / \`api-query-params\` compiles (>= 1): **${fixed(compile.ratio)}**` +
        `${verdict(compile.ratio, 1)} (${whole(compile.ours)} vs ${whole(compile.theirs)} compiles/s)`
      : '- compile benchmark not run',
    ...selfCosts.map(
      ({ name, cost, atMost }) =>
        `- \`${name}\` time / its reference request on the store (${atMost === null || atMost === Number.POSITIVE_INFINITY ? 'no target' : `<= ${atMost}`}): ` +
        `**${fixed(cost)}**${atMost === null || atMost === Number.POSITIVE_INFINITY ? '' : verdict(cost, atMost, true)}`,
    ),
    ...cases
      .filter((c) => c.latency)
      .map(
        ({ name, latency: { writes, write, event } }) =>
          `- \`${name}\` event latency over ${writes} sequential watched writes: write (request sent to answer) ` +
          `p50 ${fixed(write.p50)} ms / p99 ${fixed(write.p99)} ms; event (answer to event received) ` +
          `p50 ${fixed(event.p50)} ms / p99 ${fixed(event.p99)} ms`,
      ),
    ...spreadLine(cases),
    ...meta.skipped.map((reason) => `- skipped: ${reason}`),
    '',
    missed.length === 0 ? 'Every target is met.' : `Targets missed: ${missed.join('; ')}.`,
  ];
  if (findings) lines.push('', findings.trim());
  return `${lines.join('\n')}\n`;
}
