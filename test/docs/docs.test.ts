/**
 * Docs that cannot drift (issue 16): every fenced block of docs/, the README and the package
 * READMEs is checked against the built packages. TypeScript blocks are type-checked together
 * under `strict` as separate modules; JavaScript blocks must parse; JSON blocks must parse.
 * A block a reader cannot run as it stands says so with `<!-- not-checked: reason -->` right
 * above its fence; the count of those is printed.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { type CodeBlock, codeBlocks, markdownFiles } from './code-blocks';

const blocks = markdownFiles().flatMap(codeBlocks);
const scratch = join(import.meta.dirname, '.blocks');

function compile(checked: CodeBlock[]): string[] {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const files = new Map<string, CodeBlock>();
  for (const [i, block] of checked.entries()) {
    const typed = block.lang === 'ts' || block.lang === 'typescript';
    const file = join(scratch, `block${i}.${typed ? 'ts' : 'js'}`);
    writeFileSync(file, `${block.code}\nexport {};\n`);
    files.set(file, block);
  }
  const program = ts.createProgram([...files.keys()], {
    strict: true,
    noEmit: true,
    allowJs: true,
    checkJs: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    skipLibCheck: true,
  });
  const diagnostics = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()];
  return diagnostics.flatMap((diagnostic) => {
    const block = diagnostic.file && files.get(diagnostic.file.fileName);
    if (!block || !diagnostic.file || diagnostic.start === undefined) return [];
    if (!block.lang.startsWith('t') && diagnostic.category !== ts.DiagnosticCategory.Error) return [];
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const [file, fence] = block.where.split(':');
    return [
      `${file}:${Number(fence) + 1 + line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
    ];
  });
}

it('type-checks every TypeScript block and parses every JavaScript block of the docs', {
  timeout: 120_000,
}, () => {
  const code = blocks.filter((block) => ['ts', 'typescript', 'js', 'javascript'].includes(block.lang));
  const checked = code.filter((block) => block.exempt === undefined);
  const problems = compile(checked);
  rmSync(scratch, { recursive: true, force: true });
  console.log(
    `docs: ${checked.length} code blocks checked, ${code.length - checked.length} marked not-checked`,
  );
  expect(problems).toEqual([]);
});

it('parses every JSON block of the docs', () => {
  const problems = blocks
    .filter((block) => block.lang === 'json' && block.exempt === undefined)
    .flatMap((block) => {
      try {
        JSON.parse(block.code);
        return [];
      } catch (error) {
        return [`${block.where}: ${(error as Error).message}`];
      }
    });
  expect(problems).toEqual([]);
});
