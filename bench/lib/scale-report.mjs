// The scale table of bench/scale.mjs: its rows, the store's ratios to json-server 0.17, and the
// targets (what the store must hold as the data set grows), as markdown. Arithmetic only (no
// process, no I/O), checked by scale-report.test.mjs.

/** The contenders' names in the table. */
export const LABELS = {
  storeCli: 'store serve',
  jsonServer: 'json-server 0.17',
  jsonServerV1: 'json-server v1',
};

/** The load measures' rows. */
const MEASURE_LABELS = {
  getById: 'get-by-id (req/s)',
  equality: 'equality `n=500`, a page of 20 (req/s)',
  range: 'range + sort `n:gte=501&$sort=-n&$limit=20` (req/s)',
};

/**
 * The targets: the store's time per unindexed range + sort request grows at most 1.1x as fast as
 * the documents (11x from 100,000 to 1,000,000); at the largest size, its start-up takes at most
 * 2x json-server 0.17's and its RSS per document is at most 1.5x json-server 0.17's.
 */
const SCALE_TARGETS = { rangeGrowthPerDocuments: 1.1, startup: 2, rssPerDocument: 1.5 };

const count = (n) => n.toLocaleString('en-US');
const times = (ratio) => `${ratio.toFixed(ratio < 10 ? 2 : 1)}x`;
const mark = (met) => (met ? '✅' : '❌');
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const rate = (rps) => {
  if (rps >= 100) return count(Math.round(rps));
  return rps >= 1 ? rps.toFixed(1) : rps.toPrecision(2);
};

/**
 * The three targets over `sizes` (bench/scale.mjs's measured sizes, smallest first): each
 * `{ name, value, target, met, text }`, `value` null when the run did not measure it.
 */
export function scaleTargets(sizes) {
  const first = sizes[0];
  const last = sizes.at(-1);
  const targets = [];
  const range = (size) => size?.loads.range;
  if (sizes.length >= 2 && range(first)?.rps.storeCli && range(last)?.rps.storeCli) {
    const value = range(first).rps.storeCli / range(last).rps.storeCli;
    const target = (SCALE_TARGETS.rangeGrowthPerDocuments * last.documents) / first.documents;
    const checked = range(first).check === 'ok' && range(last).check === 'ok';
    const mixed =
      range(first).connections !== range(last).connections
        ? ' (timed differently at the two sizes: autocannon at one, a request at a time at the other)'
        : '';
    targets.push({
      name: 'range-growth',
      value,
      target,
      met: checked && value <= target,
      text: `Unindexed range + sort: the store's time per request grows ${times(value)} from ${count(first.documents)} to ${count(last.documents)} documents (target <= ${times(target)})${mixed}${checked ? '' : ', answers differ'}`,
    });
  } else {
    targets.push({
      name: 'range-growth',
      value: null,
      text: 'Unindexed range + sort growth: not measured (needs two sizes, e.g. --docs=100000,1000000)',
    });
  }
  const ratioTo = (name, field, target, what) => {
    const store = last?.[field].storeCli;
    const theirs = last?.[field].jsonServer;
    if (store === undefined || theirs === undefined) {
      return { name, value: null, text: `${what}: not measured (needs the store and json-server 0.17)` };
    }
    const value = store / theirs;
    const at = last.documents === 1_000_000 ? '' : ' (the target is set at 1,000,000)';
    return {
      name,
      value,
      target,
      met: value <= target,
      text: `${what} at ${count(last.documents)} documents: ${times(value)} json-server 0.17's (target <= ${times(target)})${at}`,
    };
  };
  targets.push(ratioTo('startup', 'startupMs', SCALE_TARGETS.startup, 'Start-up'));
  targets.push(
    ratioTo('rss-per-document', 'rssPerDocument', SCALE_TARGETS.rssPerDocument, 'RSS per document'),
  );
  return targets;
}

/** One row per measure and size: the contenders' figures and the store / json-server 0.17 ratio. */
function rows(sizes, names) {
  const lines = [];
  const row = (label, size, values, format, note = '') => {
    const cells = names.map((name) => (values[name] === undefined ? '-' : format(values[name])));
    const ratio =
      values.storeCli !== undefined && values.jsonServer ? times(values.storeCli / values.jsonServer) : '-';
    lines.push(`| ${label}${note} | ${count(size.documents)} | ${cells.join(' | ')} | ${ratio} |`);
  };
  for (const size of sizes) row('start-up (ms)', size, size.startupMs, (ms) => count(Math.round(ms)));
  for (const size of sizes) {
    row('RSS per document (bytes)', size, size.rssPerDocument, (bytes) => count(Math.round(bytes)));
  }
  for (const size of sizes.filter((measured) => measured.heapPerDocument)) {
    row('of it, live heap + external (bytes)', size, size.heapPerDocument, (bytes) =>
      count(Math.round(bytes)),
    );
  }
  for (const [key, label] of Object.entries(MEASURE_LABELS)) {
    for (const size of sizes) {
      const measured = size.loads[key];
      if (!measured) continue;
      const differ = measured.check === 'ok' ? '' : ' (answers differ)';
      const failed = measured.failures > 0 ? ` (${measured.failures} failed requests)` : '';
      const one = measured.connections === 1 ? ' (1 connection)' : '';
      row(label, size, measured.rps, rate, one + differ + failed);
    }
  }
  return lines;
}

/** How the figures were made, in a few lines. */
function method(settings, names) {
  const reduced = settings.reducedFrom
    ? ` (from ${count(settings.reducedFrom)} documents on: ${plural(settings.reducedStarts, 'start-up')}, ${plural(settings.reducedRounds, 'load round')})`
    : '';
  return [
    `${names.map((name) => LABELS[name]).join(', ')}, each in its own process over one \`db.json\` of \`items(n)\` (bench/lib/data.mjs) per size, written once before the contenders start; \`n\` is indexed nowhere.`,
    `Start-up: from the process's spawn to its first answered \`GET /items/<id>\`; RSS per document: RSS after start-up and full garbage collections, minus the RSS of the same server over no documents, / documents (and, for comparison, the same for V8's live heap plus \`external\` memory: RSS also counts the pages allocators keep after freeing them); medians of ${plural(settings.starts, 'start-up')}${reduced}.`,
    `Requests/s: medians of ${plural(settings.rounds, 'round')}${reduced ? ' (fewer, as above)' : ''} of ${settings.seconds} s after a warm-up, contenders alternating, ${settings.connections} connections (autocannon); a row marked "1 connection" had a contender whose one request took over ${settings.slowMs} ms, so every contender was timed one request at a time, rounds of at least 2 requests, no warm-up but the check (10 queued requests would wait 10x as long, and a round would cut off those in flight: the store's engine interleaves concurrent scans, which then end together). Every contender's answer is checked equal first. The ratio column is store / json-server 0.17 (start-up and bytes: lower is better; req/s: higher is better).`,
  ].join('\n');
}

/** The scale section: the method, the table, the empty servers, the targets. */
export function scaleMarkdown({ settings, empty, sizes }) {
  const names = Object.keys(empty);
  const header = `| measure | documents | ${names.map((name) => LABELS[name]).join(' | ')} | store / json-server 0.17 |`;
  const rule = `| --- | ---: | ${names.map(() => '---:').join(' | ')} | ---: |`;
  const emptyLine = names
    .map(
      (name) =>
        `${LABELS[name]} ${count(Math.round(empty[name].startupMs))} ms, ${(empty[name].rssBytes / 2 ** 20).toFixed(0)} MB`,
    )
    .join('; ');
  const targets = scaleTargets(sizes).map(
    (target) => `- ${target.value === null ? '➖' : mark(target.met)} ${target.text}`,
  );
  return [
    method(settings, names),
    '',
    header,
    rule,
    ...rows(sizes, names),
    '',
    `Over no documents (start-up, RSS): ${emptyLine}.`,
    '',
    ...targets,
    '',
  ].join('\n');
}
