// The @store Koa example: every resource open, json-server style, on the embedded engine
// unless MONGODB_URI is set. `pnpm example:koa`, then `curl http://127.0.0.1:3000/posts`.
import { createStore } from '@store/adapter-koa';
import Koa from 'koa';

const { HOST = '127.0.0.1', PORT = '3000', MONGODB_URI, BASE_URL } = process.env;
const url = `http://${HOST}:${PORT}`;
const store = createStore({ db: MONGODB_URI || undefined, baseUrl: BASE_URL || url });
const app = new Koa();
app.use(store); // at a prefix: app.use(mount('/api', store)) with koa-mount
await store.ready;

const server = app.listen(Number(PORT), HOST, () => {
  console.log(`@store Koa example listening on ${url}`);
  console.log(
    `engine: ${MONGODB_URI ? 'MongoDB (MONGODB_URI)' : 'embedded (in memory: data is lost on exit)'}`,
  );
});
// A port in use ends the process with a message and code 1 (instead of an uncaught exception).
server.on('error', (error) => {
  console.error(
    error.code === 'EADDRINUSE'
      ? `port ${PORT} on ${HOST} is already in use: stop what uses it, or choose another with PORT=<port>`
      : `cannot listen on ${HOST}:${PORT}: ${error.message}`,
  );
  process.exit(1);
});
process.once('SIGTERM', () => server.close(() => store.close()));
process.once('SIGINT', () => server.close(() => store.close()));
