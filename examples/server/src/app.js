import { fileURLToPath } from 'node:url';
import { createStore } from '@store/adapter-express';
import { magicAuth } from '@store/auth-magic';
import { openapi } from '@store/openapi';
import express from 'express';
import { refuseBlockedUsers } from './hooks.js';

/** Where `pnpm example` keeps its data without STORE_DATA (git-ignored). */
const DEFAULT_DATA = fileURLToPath(new URL('../.data', import.meta.url));

/**
 * Reads the example's settings from the environment (HOST, PORT, MONGODB_URI, STORE_DATA,
 * BASE_URL, SMTP_URL, STORE_SECRET).
 * @param {NodeJS.ProcessEnv} env
 */
export function readSettings(env) {
  const host = env.HOST ?? '127.0.0.1';
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    host,
    port,
    mongodbUri: env.MONGODB_URI || undefined,
    // The embedded engine's data: STORE_DATA, `memory`, or examples/server/.data (unused with MongoDB).
    data: env.MONGODB_URI ? undefined : env.STORE_DATA || DEFAULT_DATA,
    baseUrl: env.BASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    secret: env.STORE_SECRET || undefined,
  };
}

/**
 * Who may do what (docs/access.md): `notes` and their `comments` (children by `note_id`) are
 * `"owner"` resources: a signed-in user reads, counts, populates and changes only the documents
 * whose `user_id` is their own, set from the session on create. Any other resource stays open.
 */
const RESOURCES = {
  notes: { access: 'owner' },
  comments: { access: 'owner' },
};

/** Fields of a user document no request may write (403 `forbidden`): only server code sets them. */
const USER_PROTECTED_FIELDS = ['blocked', 'role'];

/**
 * Builds the example application: `notes` and `comments` private to their owner, every other
 * resource open, json-server style, and passwordless login (magic code and magic link) on the
 * `user` resource. Lists stream their changes (`Accept: text/event-stream`); `/docs` describes the API. Mail goes through `SMTP_URL`, or is printed to stdout when it is unset;
 * `STORE_SECRET` keys the hashes (random per process when unset).
 * @param {ReturnType<typeof readSettings>} settings
 * @param {string} baseUrl the public address, used in `Location` headers and in links in mail
 */
export function createExampleApp(settings, baseUrl) {
  const app = express();
  app.disable('x-powered-by');
  const strategy = { doVerify: refuseBlockedUsers };
  const store = createStore({
    // GET /openapi.json (an OpenAPI 3.1 description) and GET /docs (a reference page).
    plugins: [magicAuth, openapi({ title: '@store example server' })],
    db: settings.mongodbUri,
    data: settings.data,
    baseUrl,
    secret: settings.secret,
    resources: {
      ...RESOURCES,
      user: {
        auth: { magicCode: strategy, magicLink: strategy, mailer: settings.smtpUrl ?? null },
        // A user edits their own document, but never these: `blocked` (else a blocked user with a
        // live session unblocks themself) nor `role`. Server code sets them through the database.
        protected: USER_PROTECTED_FIELDS,
      },
    },
  });
  app.use(store);
  return { app, store };
}
