// The @store Hono example (any fetch host works the same way): every resource open, on the
// embedded engine unless MONGODB_URI is set. `pnpm example:hono`, then `curl http://127.0.0.1:3000/posts`.
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createStore } from '@store/adapter-fetch';
import { Hono } from 'hono';

const { HOST = '127.0.0.1', PORT = '3000', MONGODB_URI, BASE_URL } = process.env;
const url = `http://${HOST}:${PORT}`;
const store = createStore(
  { db: MONGODB_URI || undefined, baseUrl: BASE_URL || url },
  { fallthrough: true, getClientIp: (_request, c) => getConnInfo(c).remote.address },
);
const app = new Hono();
app.use(async (c, next) => (await store(c.req.raw, c)) ?? next()); // not a resource route: next()
app.get('/', (c) => c.text('@store on Hono: try /posts'));
await store.ready;

const server = serve({ fetch: app.fetch, hostname: HOST, port: Number(PORT) }, () => {
  console.log(`@store Hono example listening on ${url}`);
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
