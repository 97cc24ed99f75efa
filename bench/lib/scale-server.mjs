// json-server in its own process for bench/scale.mjs, reading the seed file itself as its
// command would: `node scale-server.mjs <jsonServer|jsonServerV1> <db.json> <port> <dir>`.
// - jsonServer: json-server 0.17's router over the parsed file on its own Express 4 app, without
//   its `defaults()` middlewares (as the `jsonServer` contender of contenders.mjs);
// - jsonServerV1: json-server v1 started as json-server-v1.mjs starts it (lowdb's `JSONFile`
//   over the file, `createApp`, NODE_ENV=production), but over the seed file as it is, where
//   json-server-v1.mjs writes its own copy of documents it is handed (which would stay in this
//   process's memory). `<dir>` holds the empty `public` folder its static files want.
// It listens on 127.0.0.1:<port>; the parent times its start-up by polling that port.
import './scale-probe.mjs';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const [contender, file, portArg, dir] = process.argv.slice(2);
const port = Number(portArg);

function jsonServer() {
  const server = require('json-server');
  const app = server.create();
  app.use(server.router(JSON.parse(readFileSync(file, 'utf8')), { foreignKeySuffix: '_id' }));
  return app.listen(port, '127.0.0.1');
}

/** A module of json-server v1's package, or of its own dependencies (lowdb), by path. */
function fromJsonServerV1(specifier) {
  const app = require.resolve('json-server-v1/lib/app.js');
  const path = specifier.startsWith('.') ? join(app, '..', specifier) : createRequire(app).resolve(specifier);
  return import(pathToFileURL(path).href);
}

async function jsonServerV1() {
  // Read when json-server's app module loads: set before the import below.
  process.env.NODE_ENV = 'production';
  const [{ createApp }, { NormalizedAdapter }, { Observer }, { Low }, { JSONFile }] = await Promise.all([
    fromJsonServerV1('./app.js'),
    fromJsonServerV1('./adapters/normalized-adapter.js'),
    fromJsonServerV1('./adapters/observer.js'),
    fromJsonServerV1('lowdb'),
    fromJsonServerV1('lowdb/node'),
  ]);
  const db = new Low(new Observer(new NormalizedAdapter(new JSONFile(file))), {});
  await db.read();
  // In production its static-files middleware lists `./public` once, at start-up.
  process.chdir(dir);
  // tinyhttp's `listen` is `(port, callback, host)`.
  return createApp(db, { logger: false, static: [] }).listen(port, undefined, '127.0.0.1');
}

const STARTS = { jsonServer, jsonServerV1 };
if (!STARTS[contender]) {
  console.error(`scale-server.mjs: unknown contender ${contender}`);
  process.exit(1);
}
const server = await STARTS[contender]();
server.once('error', (error) => {
  console.error(error);
  process.exit(1);
});
