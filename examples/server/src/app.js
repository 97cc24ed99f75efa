import { createStore } from '@store/adapter-express';
import express from 'express';

/**
 * Reads the example's settings from the environment (contract section 2).
 * @param {NodeJS.ProcessEnv} env
 */
export function readSettings(env) {
  const host = env.HOST ?? '127.0.0.1';
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return { host, port, mongodbUri: env.MONGODB_URI || undefined, baseUrl: env.BASE_URL || undefined };
}

/**
 * Builds the example application: every resource open, json-server style.
 * @param {ReturnType<typeof readSettings>} settings
 * @param {string} baseUrl the public address, used in `Location` headers
 */
export function createExampleApp(settings, baseUrl) {
  const app = express();
  app.disable('x-powered-by');
  const store = createStore({ db: settings.mongodbUri, baseUrl });
  app.use(store);
  return { app, store };
}
