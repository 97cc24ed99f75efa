/** Runs the `store` command in-process with its output captured: for the command's tests. */
import { createServer } from 'node:net';
import { type CliIo, runCli } from '../src/index';

/** A port free on 127.0.0.1 at the time of asking. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Runs the command with captured output; `stop()` ends a `serve`. */
export function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  let stop: (signal: string) => void = () => undefined;
  const out: string[] = [];
  const err: string[] = [];
  let written = '';
  let exit!: Promise<number>;
  const listening = new Promise<void>((resolve) => {
    const io: CliIo = {
      out: (line) => {
        out.push(line);
        if (line.startsWith('store serving')) resolve();
      },
      err: (line) => err.push(line),
      write: (text) => {
        written += text;
      },
      stopped: new Promise((resolveStop) => {
        stop = resolveStop;
      }),
    };
    exit = runCli(args, io, env, '9.9.9');
  });
  return {
    exit,
    listening,
    stop: async () => {
      stop('SIGTERM');
      return exit;
    },
    out: () => out.join('\n'),
    err: () => err.join('\n'),
    written: () => written,
  };
}

/** Starts `store serve` with `args` on a free port; answers its base URL and its handle. */
export async function serving(args: string[]) {
  const port = await freePort();
  const cli = run(['serve', '--port', String(port), ...args]);
  await Promise.race([
    cli.listening,
    cli.exit.then((code) => Promise.reject(new Error(`exited ${code}: ${cli.err()}`))),
  ]);
  return { base: `http://127.0.0.1:${port}`, cli };
}
