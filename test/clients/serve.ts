/**
 * The stores these tests drive, seeded with the json-server `db.json` beside this file: the
 * `store serve --seed db.json` command with its defaults, and `createStore` of
 * `@store/adapter-express` with the options the docs give json-server and admin-panel users
 * (both dialects, `id` on the wire, the API reference) seeded through the store's own bulk
 * create; both on 127.0.0.1 and an ephemeral port.
 */

import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createStore } from '@store/adapter-express';
import { runCli } from '@store/cli';
import type { StoreConfig } from '@store/core';
import { openapi } from '@store/openapi';
import express from 'express';

/** The json-server `db.json` every test starts from. */
const seed = JSON.parse(readFileSync(new URL('./db.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;

/** The documented options for clients written for json-server, react-admin or Refine. */
const CLIENT_OPTIONS = {
  dialects: true,
  wireId: 'id',
} as const satisfies StoreConfig;

export interface ServedStore {
  /** Where the store answers, without a trailing slash. */
  url: string;
  close(): Promise<void>;
}

/** Serves a fresh in-memory store with `config` (the client options by default), seeded with `db.json`. */
export async function serveStore(config: StoreConfig = CLIENT_OPTIONS): Promise<ServedStore> {
  const store = createStore({ ...config, plugins: [openapi({ title: 'clients' })] });
  await store.ready;
  const app = express();
  app.use(store);
  const server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const [name, documents] of Object.entries(seed)) {
    if (!Array.isArray(documents)) continue;
    const answer = await fetch(`${url}/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(documents),
    });
    if (answer.status !== 201) throw new Error(`seeding ${name}: ${answer.status} ${await answer.text()}`);
  }
  return {
    url,
    async close() {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      await store.close();
    },
  };
}

/**
 * Serves `db.json` as a new user does, `store serve --seed db.json`, with the command's defaults
 * (in memory, on 127.0.0.1 and a free port).
 */
export async function serveCli(): Promise<ServedStore> {
  let stop: (signal: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
  });
  const lines: string[] = [];
  let listening: (url: string) => void = () => undefined;
  const started = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const io = {
    out(line: string) {
      lines.push(line);
      const url = /^store serving (http:\/\/\S+)$/.exec(line)?.[1];
      if (url !== undefined) listening(url);
    },
    err: (line: string) => lines.push(line),
    write: () => undefined,
    stopped,
  };
  const seedFile = fileURLToPath(new URL('./db.json', import.meta.url));
  const exit = runCli(['serve', '--seed', seedFile, '--port', '0'], io, {});
  const url = await Promise.race([
    started,
    exit.then((code) => Promise.reject(new Error(`store serve exited ${code}: ${lines.join('\n')}`))),
  ]);
  return {
    url,
    async close() {
      stop('SIGTERM');
      await exit;
    },
  };
}
