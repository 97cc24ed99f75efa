import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A running example and what it has printed. */
export interface Example {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr in arrival order. */
  output(): string;
  /**
   * Resolves with the first match of `pattern` in the output once it has been printed (at once if
   * it already has); rejects if the example exits first. Reads mail the example prints.
   */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
}

/**
 * Settings the examples read, blanked so the runner's own environment cannot leak in: the
 * embedded engine, BASE_URL built from HOST and PORT, mail printed to stdout, a fresh secret.
 */
const BLANK_SETTINGS = {
  MONGODB_URI: '',
  BASE_URL: '',
  SMTP_URL: '',
  STORE_SECRET: '',
  STORE_DATA: 'memory',
};

/** Runs an example's server file until it exits by itself; answers its exit code and output. */
export async function runExampleToExit(
  serverFile: string,
  port: number,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [serverFile], {
    env: { ...process.env, ...BLANK_SETTINGS, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

/**
 * Starts an example's server file as its `pnpm example:*` script does (data in memory unless
 * `env` says otherwise); resolves once it prints its engine.
 */
export function startExample(
  serverFile: string,
  port: number,
  env: Record<string, string> = {},
): Promise<Example> {
  const child = spawn(process.execPath, [serverFile], {
    env: { ...process.env, ...BLANK_SETTINGS, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let ended: string | undefined;
  const watchers = new Set<() => void>();
  const notify = () => {
    for (const watcher of [...watchers]) watcher();
  };
  const append = (chunk: Buffer) => {
    output += chunk;
    notify();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  child.once('exit', (code, signal) => {
    ended = `exited with ${code ?? signal}`;
    notify();
  });
  child.once('error', (error) => {
    ended = `failed to run: ${error.message}`;
    notify();
  });

  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const found = pattern.exec(output);
        if (found === null && ended === undefined) return;
        watchers.delete(check);
        if (found) resolve(found);
        else reject(new Error(`example ${ended} before printing ${pattern}: ${output}`));
      };
      watchers.add(check);
      check();
    });
  const example: Example = { child, output: () => output, waitFor };
  return waitFor(/engine:/).then(() => example);
}
