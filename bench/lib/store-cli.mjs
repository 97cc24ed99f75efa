// The `store` command's own server (`store serve`: core's handler behind plain `node:http`, no
// web framework in the way), run in-process through `@store/cli`'s public `runCli`, in memory,
// seeded with the data set from a temporary file. `@store/cli` exports no `storeServer`
// (its node:http server is internal, bundled into a hashed chunk of dist/), so the command is the
// only public way in, and it is what a user runs. Its rate limits (on by default in the command)
// are turned off by a config file: the load generator is one client at thousands of requests a
// second, which the limits would answer 429 (what is measured is the server, not the limiter).
// The same file declares the resources the Express-mounted store declares (store-config.mjs:
// `companies`' `employees` relation, the index on `indexed-items`' `n`), so both servers answer
// the same requests with the same work. Everything else is the command's default: the
// json-server and simple-rest dialects on, and the primary key shown and read as `id` (the
// cases' digests read `id` or `_id`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@store/cli';
import { RESOURCES } from './store-config.mjs';

/** `store serve`'s start-up line with the address it listens on. */
const SERVING = /^store serving http:\/\/[^\s]+:(\d+)$/;

/** Starts `store serve` over `collections`; resolves `{ port, close }` once it listens. */
export async function storeCliApp(collections) {
  const dir = mkdtempSync(join(tmpdir(), 'store-bench-'));
  const seed = join(dir, 'seed.json');
  writeFileSync(seed, JSON.stringify(collections));
  const config = join(dir, 'store.config.mjs');
  writeFileSync(config, `export default ${JSON.stringify({ rateLimit: false, resources: RESOURCES })};\n`);
  let stop;
  const stopped = new Promise((resolve) => {
    stop = resolve;
  });
  let listening;
  const port = new Promise((resolve, reject) => {
    listening = { resolve, reject };
  });
  const io = {
    out: (line) => {
      const serving = SERVING.exec(line);
      if (serving) listening.resolve(Number(serving[1]));
    },
    err: (line) => console.error(line),
    write: () => {},
    stopped,
  };
  // An empty environment: no STORE_DATA, PORT or HOST of the caller's shell.
  const args = ['serve', '--seed', seed, '--config', config, '--port', '0', '--host', '127.0.0.1'];
  const exited = runCli(args, io, {});
  exited.then((code) => listening.reject(new Error(`store serve exited (${code}) before listening`)));
  try {
    return {
      port: await port,
      close: async () => {
        stop('SIGTERM');
        await exited;
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
