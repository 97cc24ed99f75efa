// node scripts/check-citations.mjs   (part of `pnpm lint`)
//
// Fails when a file cites a document that is not in the repository: an outside acceptance
// contract ("contract section 7", "contract §7", "contract 7", "the contract"), an outside
// service spec ("service-spec", "spec 4.3", "spec table 5.3") or "the original service". Scans
// the files git knows (tracked, plus new ones not ignored), except this script, pnpm-lock.yaml
// and binary files. A citation may wrap: lines are joined without their comment markers first.
// Prints each hit as `path:line: text` and exits 1 when there is any.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const self = 'scripts/check-citations.mjs';
const skipped = new Set([self, 'pnpm-lock.yaml']);

const CITATIONS = [
  /\bcontract\s*(?:sections?|§)/i,
  /\bcontract\s+\d/i,
  /\bthe\s+(?:acceptance\s+)?contract\b/i,
  /\bcontract's\b/i,
  /\boriginal\s+service\b/i,
  /\bservice[-\s]spec\b/i,
  /\bspec(?:'s)?\s+(?:table\s+|section\s+|§\s*)?\d/i,
  /\bthe\s+spec's\b/i,
  /\bshared\/spec\//i,
];

const HINT =
  'cite no outside document: say what the code does in plain words, or link the docs (docs/<page>.md)';

/** Leading whitespace and comment markers (`//`, `*`, `/**`, `#`, `>`) of a line. */
const MARKERS = /^\s*(?:\/\/+|\/\*+|\*+|#+|>+)?\s*/;

const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
})
  .split('\0')
  .filter((path) => path !== '' && !skipped.has(path));

/** The file's text, or `undefined` when it is gone, not a file, or binary. */
function text(path) {
  const full = join(root, path);
  try {
    if (!statSync(full).isFile()) return undefined;
  } catch {
    return undefined;
  }
  const bytes = readFileSync(full);
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  return bytes.toString('utf8');
}

/** Hits of one file: each line where a citation starts, the citation possibly running onto the next line. */
function hits(path, content) {
  const lines = content.split(/\r?\n/);
  const found = [];
  for (const [i, line] of lines.entries()) {
    const next = lines[i + 1]?.replace(MARKERS, '') ?? '';
    const joined = `${line} ${next}`;
    const started = CITATIONS.some((pattern) => {
      const match = pattern.exec(joined);
      return match !== null && match.index < line.length;
    });
    if (started) found.push(`${path}:${i + 1}: ${line.trim()}`);
  }
  return found;
}

const all = files.flatMap((path) => {
  const content = text(path);
  return content === undefined ? [] : hits(path, content);
});

if (all.length > 0) {
  console.error(all.join('\n'));
  console.error(`\n${all.length} citation(s) of a document outside the repository: ${HINT}`);
  process.exit(1);
}
console.log(`citation check ok: ${files.length} files`);
