/**
 * The fenced code blocks of the docs and READMEs: where they are, their language, and whether
 * a `<!-- not-checked: reason -->` comment right above the fence exempts them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CodeBlock {
  /** `docs/access.md:42`: the file and the line of the opening fence. */
  where: string;
  lang: string;
  code: string;
  /** The reason of a `<!-- not-checked: reason -->` right above the fence. */
  exempt?: string;
}

/** Every Markdown file whose code a reader copies: docs/, the README and each package's README. */
export function markdownFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, 'docs', name));
  const packages = readdirSync(join(root, 'packages')).map((name) =>
    join(root, 'packages', name, 'README.md'),
  );
  return [join(root, 'README.md'), ...docs, ...packages].filter((path) => {
    try {
      readFileSync(path);
      return true;
    } catch {
      return false;
    }
  });
}

const FENCE = /^```(\w*)\s*$/;
const EXEMPT = /^<!--\s*not-checked:\s*(.+?)\s*-->$/;

export function codeBlocks(path: string): CodeBlock[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i += 1; i < lines.length && !/^```\s*$/.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    const exempt = EXEMPT.exec((lines[start - 1] ?? '').trim())?.[1];
    blocks.push({
      where: `${relative(root, path)}:${start + 1}`,
      lang: open[1] ?? '',
      code: body.join('\n'),
      ...(exempt ? { exempt } : {}),
    });
  }
  return blocks;
}
