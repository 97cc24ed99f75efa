/**
 * What a run of the spec tests gave, written down: `report.md` (per tier and per file, with the
 * reason of every test that does not pass) and the feature table of `docs/embedded-engine.md`
 * (every operation, option, bulk-write model, aggregation stage and update form the CRUD files
 * use, with what the engine does with it and the test that pins it). Both are generated, so a run
 * whose answers moved shows as a change to review.
 */
import type { Outcome } from './run-test';
import type { SpecFile } from './spec-files';

type Document = Record<string, unknown>;

/** One applicable test and its outcome on each tier, by tier name. */
export interface TestResult {
  file: string;
  description: string;
  features: string[];
  outcomes: Record<string, Outcome>;
}

const POSITIONAL: Readonly<Record<string, readonly string[]>> = {
  aggregate: ['pipeline'],
  bulkWrite: ['requests'],
  count: ['filter'],
  countDocuments: ['filter'],
  createIndex: ['keys'],
  deleteMany: ['filter'],
  deleteOne: ['filter'],
  distinct: ['fieldName', 'filter'],
  find: ['filter'],
  findOne: ['filter'],
  findOneAndDelete: ['filter'],
  findOneAndReplace: ['filter', 'replacement'],
  findOneAndUpdate: ['filter', 'update'],
  insertMany: ['documents'],
  insertOne: ['document'],
  replaceOne: ['filter', 'replacement'],
  updateMany: ['filter', 'update'],
  updateOne: ['filter', 'update'],
  createCollection: ['collection'],
  dropCollection: ['collection'],
  modifyCollection: ['collection'],
  clientBulkWrite: ['models'],
};

/** The model arguments of a bulk write's requests that are not options. */
const MODEL_POSITIONAL = new Set(['filter', 'update', 'replacement', 'document']);

/** The features one operation of a test uses. */
function operationFeatures(operation: Document, kinds: ReadonlyMap<string, string>): string[] {
  const name = String(operation.name);
  const kind = kinds.get(String(operation.object));
  if (kind === undefined) return [];
  const args = (operation.arguments ?? {}) as Document;
  const method = kind === 'collection' ? `\`${name}\`` : `\`${kind}.${name}\``;
  const features = [method];
  const positional = POSITIONAL[name] ?? [];
  for (const key of Object.keys(args)) {
    if (!positional.includes(key)) features.push(`${method} option \`${key}\``);
  }
  if (Array.isArray(args.update)) features.push('update pipeline');
  if (Array.isArray(args.pipeline)) {
    for (const stage of args.pipeline as Document[]) {
      const [stageName] = Object.keys(stage);
      if (stageName) features.push(`aggregation stage \`${stageName}\``);
    }
  }
  if (name === 'bulkWrite' && Array.isArray(args.requests)) {
    for (const request of args.requests as Document[]) {
      const [model, body] = Object.entries(request)[0] ?? [];
      if (!model) continue;
      features.push(`\`bulkWrite\` model \`${model}\``);
      for (const key of Object.keys((body ?? {}) as Document)) {
        if (!MODEL_POSITIONAL.has(key)) features.push(`\`bulkWrite\` model \`${model}\` option \`${key}\``);
      }
      if (Array.isArray((body as Document | undefined)?.update)) features.push('update pipeline');
    }
  }
  return features;
}

/** Every feature a test uses, by the unified format's operations (raw JSON: names only). */
export function testFeatures(file: SpecFile, testIndex: number): string[] {
  const raw = JSON.parse(file.text) as Document;
  const kinds = new Map<string, string>();
  for (const definition of (raw.createEntities ?? []) as Document[]) {
    const [kind, spec] = Object.entries(definition)[0] as [string, Document];
    kinds.set(String(spec.id), kind);
  }
  const test = (raw.tests as Document[])[testIndex] as { operations: Document[] };
  return [...new Set(test.operations.flatMap((operation) => operationFeatures(operation, kinds)))];
}

const STATUSES = ['pass', 'fail', 'unsupported', 'inexpressible'] as const;

function counts(results: readonly TestResult[], tier: string): Record<(typeof STATUSES)[number], number> {
  const tally = { pass: 0, fail: 0, unsupported: 0, inexpressible: 0 };
  for (const result of results) {
    const outcome = result.outcomes[tier];
    if (outcome) tally[outcome.status] += 1;
  }
  return tally;
}

const percent = (part: number, whole: number): string =>
  whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** A Markdown table with its columns padded to their widest cell, as the formatter (biome) writes it. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((title, column) =>
    Math.max(3, title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((text, column) => text.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

/** `report.md`: totals per tier, counts per file, and why each test that does not pass does not. */
export function renderReport(results: readonly TestResult[], tiers: readonly string[]): string {
  const lines = [
    '# MongoDB CRUD spec tests on the embedded engine',
    '',
    'Generated by `pnpm vitest run --project crud-spec` (with `CRUD_SPEC_UPDATE=1` it rewrites this',
    'file); do not edit. The tests are the vendored files of `specifications/unified/`; the applicable',
    'ones (a standalone MongoDB 7.0 without authentication) are listed in `applicable-tests.json`.',
    'Event assertions are not checked. `unsupported`: the engine refused a feature by name (code 238',
    "NotImplemented, 59 or 115); `inexpressible`: the engine's own API has no way to state the test",
    '(client options, fail points, database commands), or the Node driver cannot send it as written.',
    '',
  ];
  const totals = tiers.map((tier) => {
    const tally = counts(results, tier);
    const expressible = results.length - tally.inexpressible;
    const numbers = [results.length, tally.pass, tally.fail, tally.unsupported, tally.inexpressible];
    return [tier, ...numbers.map(String), percent(tally.pass, expressible)];
  });
  lines.push(
    ...table(['tier', 'applicable', 'pass', 'fail', 'unsupported', 'inexpressible', 'pass rate'], totals),
  );
  const files = [...new Set(results.map((result) => result.file))];
  const byFile = files.map((file) => {
    const inFile = results.filter((result) => result.file === file);
    const cells = tiers.map((tier) => {
      const tally = counts(inFile, tier);
      return STATUSES.filter((status) => tally[status] > 0)
        .map((status) => `${tally[status]} ${status}`)
        .join(', ');
    });
    return [file, String(inFile.length), ...cells];
  });
  lines.push('', '## By file', '', ...table(['file', 'tests', ...tiers], byFile));
  lines.push('', '## Tests that do not pass', '');
  for (const result of results) {
    const notPassing = tiers.filter((tier) => result.outcomes[tier]?.status !== 'pass');
    if (notPassing.length === 0) continue;
    lines.push(`- **${result.file}**: ${result.description}`);
    const byDetail = new Map<string, string[]>();
    for (const tier of notPassing) {
      const outcome = result.outcomes[tier] as Exclude<Outcome, { status: 'pass' }> | undefined;
      const key = outcome ? `${outcome.status}: ${outcome.detail}` : 'not run';
      byDetail.set(key, [...(byDetail.get(key) ?? []), tier]);
    }
    for (const [detail, inTiers] of byDetail) lines.push(`  - ${inTiers.join(', ')}: ${detail}`);
  }
  return `${lines.join('\n')}\n`;
}

type FeatureStatus = 'supported' | 'refused' | 'differs' | 'not shown' | 'n/a';

/** The name a feature's refusal would hold: its last code span (`$out`, `collation`, `dropCollection`). */
function featureToken(feature: string): string {
  const spans = [...feature.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
  const last = spans.at(-1) ?? feature.split(' ').at(-1) ?? feature;
  return last.includes('.') ? (last.split('.').at(-1) ?? last) : last;
}

/**
 * The features a refused test refuses: those its refusal names, the most specific first (an
 * option or a stage over the method it belongs to). The test's other features are not shown by
 * it, either way.
 */
function refusedFeatures(result: TestResult, detail: string): Set<string> {
  const named = result.features.filter((feature) => detail.includes(featureToken(feature)));
  const specific = named.filter((feature) => feature.includes(' '));
  return new Set(specific.length > 0 ? specific : named);
}

/**
 * A feature's status on `tiers` over the tests that use it: any failure differs; else any pass
 * supported; else refused when a refusal names it; else not shown (its tests are refused for
 * another feature) or n/a (no tier can express them).
 */
function featureStatus(
  feature: string,
  using: readonly TestResult[],
  tiers: readonly string[],
): FeatureStatus {
  const outcomes = using.flatMap((result) =>
    tiers.map((tier) => ({ result, outcome: result.outcomes[tier] })),
  );
  if (outcomes.some(({ outcome }) => outcome?.status === 'fail')) return 'differs';
  if (outcomes.some(({ outcome }) => outcome?.status === 'pass')) return 'supported';
  const refusals = outcomes.filter(({ outcome }) => outcome?.status === 'unsupported');
  if (
    refusals.some(({ result, outcome }) =>
      refusedFeatures(result, (outcome as { detail: string }).detail).has(feature),
    )
  ) {
    return 'refused';
  }
  return refusals.length > 0 ? 'not shown' : 'n/a';
}

/** The test that shows a feature's status on the driver tiers: one that passes, else one whose refusal names it. */
function pinningTest(
  feature: string,
  using: readonly TestResult[],
  driverTiers: readonly string[],
): TestResult | undefined {
  const passes = (result: TestResult) =>
    driverTiers.every((tier) => result.outcomes[tier]?.status === 'pass');
  const refuses = (result: TestResult) =>
    driverTiers.some((tier) => {
      const outcome = result.outcomes[tier];
      return outcome?.status === 'unsupported' && refusedFeatures(result, outcome.detail).has(feature);
    });
  return using.find(passes) ?? using.find(refuses) ?? using[0];
}

/** The feature table of `docs/embedded-engine.md`. */
export function renderFeatureTable(
  results: readonly TestResult[],
  driverTiers: readonly string[],
  apiTier: string,
): string {
  const features = [...new Set(results.flatMap((result) => result.features))].sort((a, b) =>
    a.replaceAll('`', '').localeCompare(b.replaceAll('`', '')),
  );
  const rows: string[][] = [];
  for (const feature of features) {
    const using = results.filter((result) => result.features.includes(feature));
    const passing = using.filter((result) =>
      driverTiers.every((tier) => result.outcomes[tier]?.status === 'pass'),
    );
    const pin = pinningTest(feature, using, driverTiers);
    rows.push([
      feature,
      featureStatus(feature, using, driverTiers),
      featureStatus(feature, using, [apiTier]),
      `${passing.length} / ${using.length}`,
      cell(pin ? `${pin.file}: ${pin.description}` : ''),
    ]);
  }
  const header = ['feature (as the CRUD spec tests use it)', 'through the driver', 'through the engine API'];
  return table([...header, 'tests passing / using it', 'pinned by'], rows).join('\n');
}

/** `page` with the text between the table's markers replaced by `table`. */
export function withFeatureTable(page: string, table: string): string {
  const start = '<!-- crud-spec-features:start -->';
  const end = '<!-- crud-spec-features:end -->';
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from === -1 || to < from) throw new Error(`docs/embedded-engine.md has no ${start} ... ${end} markers`);
  return `${page.slice(0, from + start.length)}\n\n${table}\n\n${page.slice(to)}`;
}
