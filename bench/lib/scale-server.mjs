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
import { jsonServerV1Over } from './json-server-v1.mjs';

const require = createRequire(import.meta.url);
const [contender, file, portArg, dir] = process.argv.slice(2);
const port = Number(portArg);

function jsonServer() {
  const server = require('json-server');
  const app = server.create();
  app.use(server.router(JSON.parse(readFileSync(file, 'utf8')), { foreignKeySuffix: '_id' }));
  return app.listen(port, '127.0.0.1');
}

async function jsonServerV1() {
  const app = await jsonServerV1Over(file, dir);
  // tinyhttp's `listen` is `(port, callback, host)`.
  return app.listen(port, undefined, '127.0.0.1');
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
