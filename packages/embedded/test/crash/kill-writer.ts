/** The crash tests' harness: a writer process, killed with SIGKILL a while after it is under way. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/**
 * Starts `node <script> ...args` in the package's folder and kills it with SIGKILL `ms` after its
 * output first holds `marker`; answers everything it printed. Fails if it exits by itself.
 */
export async function killedWriter(
  script: string,
  args: string[],
  marker: string,
  ms: number,
): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [script, ...args], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (out.includes(marker)) {
        child.stdout?.off('data', check);
        setTimeout(resolve, ms);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', () => reject(new Error(`the writer exited by itself: ${err}`)));
  });
  child.kill('SIGKILL');
  const [code, signal] = await exited;
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
  return out;
}
