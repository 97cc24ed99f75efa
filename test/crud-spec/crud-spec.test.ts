/**
 * MongoDB's CRUD unified spec tests on the embedded engine: through the official driver 6 and 7
 * over test-kit's wire front, and through the engine's own API. Each applicable test must pass or
 * be refused by name (never answered differently); `report.md`, `applicable-tests.json` and the
 * feature table of `docs/embedded-engine.md` must be what this run gives.
 *
 * `CRUD_SPEC_FILES=updateOne,bulkWrite` runs only the files whose names start so (the written
 * files are then not compared); `CRUD_SPEC_UPDATE=1` rewrites them from the run. Every run also
 * leaves its report in the temporary directory: `$TMPDIR/crud-spec-last-run.md`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  renderFeatureTable,
  renderReport,
  type TestResult,
  testFeatures,
  withFeatureTable,
} from './src/report';
import { runSpecTest } from './src/run-test';
import { isApplicable, readSpecFiles, testName } from './src/spec-files';
import { driverTier, embeddedTier, type Tier } from './src/tiers';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const REPORT = here('./report.md');
const APPLICABLE = here('./applicable-tests.json');
const DOCS_PAGE = here('../../docs/embedded-engine.md');

const only = process.env.CRUD_SPEC_FILES?.split(',').filter(Boolean);
const update = process.env.CRUD_SPEC_UPDATE === '1';
const files = readSpecFiles().filter((file) => !only || only.some((prefix) => file.name.startsWith(prefix)));
const applicable = files.flatMap((file) =>
  file.tests.flatMap((test, index) => (isApplicable(file, test) ? [{ file, test, index }] : [])),
);

const tiers: Tier[] = [driverTier(6), driverTier(7), embeddedTier()];
const results = new Map<string, TestResult>(
  applicable.map(({ file, test, index }) => [
    testName(file, test),
    { file: file.name, description: test.description, features: testFeatures(file, index), outcomes: {} },
  ]),
);

for (const tier of tiers) {
  describe(tier.name, () => {
    beforeAll(() => tier.start());
    afterAll(() => tier.close());
    const parsed = new Map<string, Record<string, unknown>>();
    for (const { file, test, index } of applicable) {
      it(`${testName(file, test)} passes or is refused by name`, async () => {
        if (!parsed.has(file.name)) parsed.set(file.name, tier.parse(file.text));
        const outcome = await runSpecTest(tier, parsed.get(file.name) as Record<string, unknown>, index);
        (results.get(testName(file, test)) as TestResult).outcomes[tier.name] = outcome;
        expect(outcome.status === 'fail' ? outcome.detail : 'no silent wrong answer').toBe(
          'no silent wrong answer',
        );
      });
    }
  });
}

/** Compares `path` with `text`, or writes it with CRUD_SPEC_UPDATE=1. */
function current(path: string, text: string): void {
  if (update) writeFileSync(path, text);
  else
    expect(
      readFileSync(path, 'utf8'),
      `${path} is stale: run CRUD_SPEC_UPDATE=1 pnpm vitest run --project crud-spec`,
    ).toBe(text);
}

// Every run, filtered or not, leaves its report in the temporary directory for a look.
afterAll(() => {
  writeFileSync(
    `${tmpdir()}/crud-spec-last-run.md`,
    renderReport(
      [...results.values()],
      tiers.map((tier) => tier.name),
    ),
  );
});

/** Skips a check of the written files when a `-t` filter left some test without an outcome. */
function skipUnlessAllRan(context: { skip(note?: string): void }): void {
  const ran = [...results.values()].every((result) => tiers.every((tier) => result.outcomes[tier.name]));
  if (!ran) context.skip('not every spec test ran (a -t filter)');
}

describe('what the run gives', () => {
  it.skipIf(only !== undefined)('applicable-tests.json lists the applicable tests', (context) => {
    skipUnlessAllRan(context);
    current(APPLICABLE, `${JSON.stringify([...results.keys()], null, 2)}\n`);
  });
  it.skipIf(only !== undefined)(
    'report.md and the feature table of docs/embedded-engine.md are current',
    () => {
      const all = [...results.values()];
      current(
        REPORT,
        renderReport(
          all,
          tiers.map((tier) => tier.name),
        ),
      );
      const table = renderFeatureTable(all, ['driver 6', 'driver 7'], 'embedded');
      current(DOCS_PAGE, withFeatureTable(readFileSync(DOCS_PAGE, 'utf8'), table));
    },
  );
});
