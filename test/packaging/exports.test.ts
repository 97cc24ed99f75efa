import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Runs a plain Node file outside Vitest, so only the packages' own `exports` maps resolve. */
function runNode(file: string): string {
  return execFileSync(process.execPath, [file], { cwd: here, encoding: 'utf8' });
}

describe('built packages', () => {
  it('load with ESM import from a plain .mjs file', () => {
    expect(runNode('check.mjs')).toMatch(/^esm ok: /);
  });

  it('load with CommonJS require from a plain .cjs file', () => {
    expect(runNode('check.cjs')).toMatch(/^cjs ok: /);
  });
});
