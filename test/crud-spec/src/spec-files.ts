/**
 * The vendored CRUD spec files and which of their tests apply here: the runner stands in for a
 * standalone MongoDB 7.0 (the version the wire front reports) without authentication, client-side
 * encryption or server parameters, so a test runs when one of its file's and one of its own
 * `runOnRequirements` entries (if any) accept that server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where the vendored JSON files are. */
const SPEC_DIR = fileURLToPath(new URL('../specifications/unified/', import.meta.url));

/** The server the runner stands in for. */
const SERVER = { version: [7, 0, 0], topology: 'single' } as const;

/** One entry of a `runOnRequirements` list (only the fields the CRUD files use). */
interface Requirement {
  minServerVersion?: string;
  maxServerVersion?: string;
  topologies?: string[];
  serverless?: 'require' | 'forbid' | 'allow';
  auth?: boolean;
  csfle?: unknown;
  serverParameters?: unknown;
}

/** A test of a unified spec file, as its JSON has it (values still Extended JSON text). */
export interface SpecTest {
  description: string;
  runOnRequirements?: Requirement[];
  skipReason?: string;
  operations: unknown[];
  expectEvents?: unknown[];
  outcome?: unknown[];
}

/** A unified spec file: its name (without `.json`) and its raw text (parsed per tier, into that tier's BSON values). */
export interface SpecFile {
  name: string;
  text: string;
  runOnRequirements?: Requirement[];
  tests: SpecTest[];
}

const versionParts = (version: string): number[] => version.split('.').map(Number);

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i += 1) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

function accepts(requirement: Requirement): boolean {
  const { minServerVersion, maxServerVersion, topologies } = requirement;
  if (minServerVersion && compareVersions(versionParts(minServerVersion), SERVER.version) > 0) return false;
  if (maxServerVersion && compareVersions(versionParts(maxServerVersion), SERVER.version) < 0) return false;
  if (topologies && !topologies.includes(SERVER.topology)) return false;
  if (requirement.serverless === 'require') return false;
  return !requirement.auth && requirement.csfle === undefined && requirement.serverParameters === undefined;
}

const acceptedBy = (requirements: Requirement[] | undefined): boolean =>
  requirements === undefined || requirements.some(accepts);

/** Whether `test` of `file` runs against the server the runner stands in for. */
export const isApplicable = (file: SpecFile, test: SpecTest): boolean =>
  acceptedBy(file.runOnRequirements) && acceptedBy(test.runOnRequirements) && test.skipReason === undefined;

/** Every vendored file, by name. */
export function readSpecFiles(): SpecFile[] {
  return readdirSync(SPEC_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((fileName) => {
      const text = readFileSync(`${SPEC_DIR}${fileName}`, 'utf8');
      const { runOnRequirements, tests } = JSON.parse(text) as Omit<SpecFile, 'name' | 'text'>;
      return { name: fileName.slice(0, -'.json'.length), text, runOnRequirements, tests };
    });
}

/** A test's name in reports and in the list of applicable tests: `<file>: <description>`. */
export const testName = (file: SpecFile, test: SpecTest): string => `${file.name}: ${test.description}`;
