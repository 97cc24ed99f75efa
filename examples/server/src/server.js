import { createExampleApp, readSettings } from './app.js';

const settings = readSettings(process.env);
let stopping = false;
const url = `http://${settings.host}:${settings.port}`;
const { app, store } = createExampleApp(settings, settings.baseUrl ?? url);
// Listen at once: while MongoDB cannot be reached the store answers 503 and retries on its own
// (it logs when the database goes and comes back). `ready` rejects only on a bad option.
store.ready.then(
  () => console.log('storage ready'),
  (error) => {
    if (stopping) return;
    console.error(`cannot start the store: ${error.message}`);
    process.exit(1);
  },
);

const server = app.listen(settings.port, settings.host, (error) => {
  if (error) return failToListen(error, settings.port, settings.host);
  console.log(`@store example server listening on ${url}`);
  console.log(
    `engine: ${
      settings.mongodbUri
        ? 'MongoDB (MONGODB_URI)'
        : settings.data === 'memory'
          ? 'embedded (in memory: data is lost on exit; STORE_DATA=<dir> keeps it)'
          : `embedded (data in ${settings.data}; STORE_DATA=memory keeps it in memory)`
    }`,
  );
  console.log(`mail: ${settings.smtpUrl ? 'SMTP (SMTP_URL)' : 'printed here (no SMTP_URL)'}`);
  console.log(`try: curl ${url}/posts`);
  console.log(
    `sign in: curl -X POST ${url}/auth/magic-code/ -H 'content-type: application/json' -d '{"email":"you@example.com"}'`,
  );
});

/** A port in use (or another listen failure) ends the process with a message and code 1. */
function failToListen(error, port, host) {
  console.error(
    error.code === 'EADDRINUSE'
      ? `port ${port} on ${host} is already in use: stop what uses it, or choose another with PORT=<port>`
      : `cannot listen on ${host}:${port}: ${error.message}`,
  );
  process.exit(1);
}

async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  server.close();
  server.closeAllConnections?.();
  await store.close();
  process.exit(0);
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
