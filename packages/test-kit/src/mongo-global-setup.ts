/**
 * Vitest globalSetup: finds a MongoDB for the `[mongodb]` tier of `describeEngines`, once
 * per run. `MONGODB_URI` wins; otherwise mongodb-memory-server-core is asked for a server,
 * without downloading (unless `MONGOMS_RUNTIME_DOWNLOAD` says otherwise) and within a few
 * seconds. The outcome reaches the tests through `provide('storeMongo', ...)`.
 */
import { createRequire } from 'node:module';
import type { TestProject } from 'vitest/node';

/** What the tests learn about the MongoDB tier. */
export type MongoTier = { uri: string } | { skip: string };

declare module 'vitest' {
  export interface ProvidedContext {
    storeMongo: MongoTier;
  }
}

/** Give up on starting a server after this long (milliseconds). */
const START_TIMEOUT_MS = Number(process.env.STORE_TEST_MONGO_TIMEOUT_MS ?? 8_000);

interface StartedServer {
  getUri(): string;
  stop(): Promise<unknown>;
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 200);
}

async function startServer(): Promise<StartedServer> {
  // No binary on the machine and no permission to download: fail at once, never hang.
  process.env.MONGOMS_RUNTIME_DOWNLOAD ??= 'false';
  // Loaded with `require`: the package's `main` has no extension, which an ESM `import` from
  // Vitest's global setup cannot resolve ("Cannot find package"), so the tier was always skipped.
  const { MongoMemoryServer } = createRequire(import.meta.url)(
    'mongodb-memory-server-core',
  ) as typeof import('mongodb-memory-server-core');
  // Its own failure report is a multi-line stack on console.warn; ours is the one-line skip reason.
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return await MongoMemoryServer.create();
  } finally {
    console.warn = warn;
  }
}

/** Starts a server, or explains in one line why not. A late start is stopped at once. */
async function startWithin(ms: number): Promise<StartedServer | string> {
  const pending = startServer();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`mongodb-memory-server did not start within ${ms} ms`), ms);
  });
  try {
    const outcome = await Promise.race([pending, timeout]);
    if (typeof outcome === 'string') void pending.then((late) => late.stop()).catch(() => undefined);
    return outcome;
  } catch (error) {
    return `no MONGODB_URI and mongodb-memory-server could not start (${oneLine(error)})`;
  } finally {
    clearTimeout(timer);
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const configured = process.env.MONGODB_URI;
  if (configured) {
    project.provide('storeMongo', { uri: configured });
    return undefined;
  }
  const server = await startWithin(START_TIMEOUT_MS);
  if (typeof server === 'string') {
    // Said once per project, so a CI log shows the skipped tier and why, not only a count.
    console.log(`[${project.name}] MongoDB tier skipped: ${server}`);
    project.provide('storeMongo', { skip: server });
    return undefined;
  }
  project.provide('storeMongo', { uri: server.getUri() });
  return async () => {
    await server.stop();
  };
}
