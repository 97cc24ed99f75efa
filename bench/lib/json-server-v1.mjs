// json-server v1 (the `json-server` 1.x beta line, installed as `json-server-v1`), started the way
// its own `json-server <file>` command starts it (lib/bin.js): a lowdb `JSONFile` over a JSON file
// (here a temporary copy of the data set), behind its `NormalizedAdapter` and `Observer`, read
// once, then `createApp` (tinyhttp, with its CORS, body parser and static-files middlewares) on
// 127.0.0.1. With NODE_ENV=production, as for json-server 0.17 the cheapest setting there is: no
// watcher on the file, static files listed once at start-up instead of looked up per request.
// Every write (`POST`) rewrites the whole file, as the command does: json-server v1 has no
// in-memory mode.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * The data set as json-server v1 reads it: `id` for `_id`, and for `_embed` the foreign key it
 * joins on, `<singular(parent)>Id` (`companyId`), for the data set's `company_id`.
 */
function forJsonServerV1(collections) {
  return Object.fromEntries(
    Object.entries(collections).map(([name, docs]) => [
      name,
      docs.map(({ _id, company_id, ...rest }) => ({
        id: _id,
        ...rest,
        ...(company_id === undefined ? {} : { companyId: company_id }),
      })),
    ]),
  );
}

/** A module of json-server v1's package, or of its own dependencies (lowdb), by path. */
function fromJsonServer(specifier) {
  const app = require.resolve('json-server-v1/lib/app.js');
  const path = specifier.startsWith('.') ? join(app, '..', specifier) : createRequire(app).resolve(specifier);
  return import(pathToFileURL(path).href);
}

/**
 * json-server v1's app over `file`, made as its command makes it (lowdb's `JSONFile`,
 * `createApp`, NODE_ENV=production), not listening yet. In production its static-files
 * middleware lists `./public` once, when the app is made, and fails when there is none: `dir`
 * must hold an empty one, and is the working directory meanwhile.
 */
export async function jsonServerV1Over(file, dir) {
  // Read when json-server's app module loads: set before the import below.
  process.env.NODE_ENV = 'production';
  const [{ createApp }, { NormalizedAdapter }, { Observer }, { Low }, { JSONFile }] = await Promise.all([
    fromJsonServer('./app.js'),
    fromJsonServer('./adapters/normalized-adapter.js'),
    fromJsonServer('./adapters/observer.js'),
    fromJsonServer('lowdb'),
    fromJsonServer('lowdb/node'),
  ]);
  const db = new Low(new Observer(new NormalizedAdapter(new JSONFile(file))), {});
  await db.read();
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    return createApp(db, { logger: false, static: [] });
  } finally {
    process.chdir(cwd);
  }
}

/** Starts json-server v1 over `collections`; resolves `{ port, close }` once it listens. */
export async function jsonServerV1App(collections) {
  const dir = mkdtempSync(join(tmpdir(), 'json-server-v1-bench-'));
  const file = join(dir, 'db.json');
  writeFileSync(file, JSON.stringify(forJsonServerV1(collections)));
  mkdirSync(join(dir, 'public'));
  let app;
  try {
    app = await jsonServerV1Over(file, dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const server = await new Promise((resolve, reject) => {
    const listening = app.listen(0, () => resolve(listening), '127.0.0.1');
    listening.once('error', reject);
  });
  return {
    port: server.address().port,
    close: async () => {
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
