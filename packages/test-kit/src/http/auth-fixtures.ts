/**
 * Fixtures of the auth part of the HTTP suite: a store with `resources.user.auth` on a frozen
 * clock, a client that never follows redirects, the mailboxes (captured in memory, or delivered
 * to a real SMTP server over an `SMTP_URL`-style URL), and snapshots of what auth stores.
 */
import { magicAuth, type UserAuthConfig } from '@store/auth-magic';
import { createCapturingMailer } from '@store/auth-magic/testing';
import type { StoreDb } from '@store/common';
import type { StoreConfig } from '@store/core';
import { startSmtpServer, type TestSmtpServer } from '../smtp';
import type { Start } from './fixtures';
import type { ReplyJson, ServeOptions } from './harness';

/** The store's public address in the tests: links in mail start with it. */
export const BASE_URL = 'http://store.test/api';

/** Collections a refused request must leave as they were. */
const WATCHED = ['users', 'svc-magic-codes', 'svc-magic-links', 'svc-sessions'] as const;

/** Where the store's mail ends up, and how a test reads the secrets in it. */
export interface Mailbox {
  /** The `mailer` option that delivers here. */
  mailer: UserAuthConfig['mailer'];
  /** Messages received so far. */
  count(): number;
  /** The code in the newest message to `email`. */
  codeTo(email: string): string;
  /** The token of the link in the newest message to `email`. */
  linkTo(email: string): { link: string; token: string };
}

/** Messages captured in memory by `@store/auth-magic/testing`'s mailer. */
export function capturedMailbox(): Mailbox {
  const mailer = createCapturingMailer();
  return {
    mailer,
    count: () => mailer.messages.length,
    codeTo: (email) => mailer.lastCodeTo(email),
    linkTo(email) {
      const message = mailer.lastMessageTo(email);
      if (!message?.link || !message.linkToken) throw new Error(`no link was mailed to ${email}`);
      return { link: message.link, token: message.linkToken };
    },
  };
}

/** Decodes a quoted-printable text part as nodemailer writes it. */
const decode = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** Messages delivered by nodemailer's SMTP transport to a real `smtp-server` on 127.0.0.1. */
export function smtpMailbox(server: TestSmtpServer): Mailbox {
  const lastTo = (email: string) => {
    const mail = server.received.findLast((received) => received.to.includes(email));
    if (mail === undefined) throw new Error(`no mail reached the SMTP server for ${email}`);
    return decode(mail.raw);
  };
  return {
    mailer: server.url,
    count: () => server.received.length,
    codeTo(email) {
      const code = /^(\d{6})$/m.exec(lastTo(email))?.[1];
      if (code === undefined) throw new Error(`no code in the mail to ${email}`);
      return code;
    },
    linkTo(email) {
      const found = /(https?:\/\/\S+\/auth\/magic-link\/([\w-]{43}))$/m.exec(lastTo(email));
      if (!found?.[1] || !found[2]) throw new Error(`no link in the mail to ${email}`);
      return { link: found[1], token: found[2] };
    },
  };
}

export { startSmtpServer, type TestSmtpServer };

/** One answer, read whole; redirects are not followed. */
export interface AuthReply {
  status: number;
  headers: Headers;
  text: string;
  json: ReplyJson;
}

/** What a request carries: `json` is sent as JSON, `form` as a form post, `raw` as is. */
interface AuthSend {
  json?: unknown;
  form?: string;
  raw?: string;
  headers?: Record<string, string>;
}

/** A store serving auth, its database, its mailbox and its clock. */
export interface AuthApi {
  url: string;
  db: StoreDb;
  mailbox: Mailbox;
  send(method: string, path: string, send?: AuthSend): Promise<AuthReply>;
  /** Moves the flows' clock forward. */
  advance(ms: number): void;
  /** Every document auth keeps, to compare before and after a refused request. */
  snapshot(): Promise<Record<string, unknown[]>>;
}

function body(send: AuthSend): { body?: string; type?: string } {
  if (send.json !== undefined) return { body: JSON.stringify(send.json), type: 'application/json' };
  if (send.form !== undefined) return { body: send.form, type: 'application/x-www-form-urlencoded' };
  return send.raw === undefined ? {} : { body: send.raw };
}

async function request(url: string, method: string, path: string, send: AuthSend = {}): Promise<AuthReply> {
  const { body: payload, type } = body(send);
  const headers = { ...(type === undefined ? {} : { 'content-type': type }), ...send.headers };
  const response = await fetch(`${url}${path}`, { method, headers, body: payload, redirect: 'manual' });
  const text = await response.text();
  const json: ReplyJson =
    (response.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, text, json };
}

/** The next full hour: send windows (minute, hour) start exactly there, so none ends mid-test. */
function nextHour(): number {
  const hour = 3_600_000;
  return Date.now() - (Date.now() % hour) + hour;
}

/** The `secret` of every store {@link withAuth} configures. */
export const STORE_SECRET = 'http-suite-secret-0123456789';

const quiet = { error: console.error, warn: () => undefined, log: () => undefined };

/**
 * `config` with passwordless login on (`plugins: [magicAuth]`, a fixed secret, `baseUrl`
 * {@link BASE_URL}), `resources.user.auth` set to `auth` (default: both strategies, mail
 * captured): the store then keeps its internal collections (`svc-*`, the users' secrets).
 */
export function withAuth(
  config: StoreConfig = {},
  auth: UserAuthConfig = { magicCode: {}, magicLink: {}, mailer: capturedMailbox().mailer },
): StoreConfig {
  return {
    baseUrl: BASE_URL,
    secret: STORE_SECRET,
    logger: quiet,
    plugins: [magicAuth],
    ...config,
    resources: { ...config.resources, user: { auth } },
  };
}

/**
 * Serves a store with both strategies on `resources.user.auth` (generous send limits unless
 * `auth` sets its own), a fixed secret, `baseUrl` {@link BASE_URL} and a clock the test moves.
 */
export async function startAuth(
  start: Start,
  options: { auth?: UserAuthConfig; mailbox?: Mailbox; config?: StoreConfig; serve?: ServeOptions } = {},
): Promise<AuthApi> {
  const mailbox = options.mailbox ?? capturedMailbox();
  const now = nextHour();
  let offset = 0;
  const auth: UserAuthConfig = {
    magicCode: {},
    magicLink: {},
    mailer: mailbox.mailer,
    rateLimit: { perAddress: { max: 1000 }, perIp: { max: 1000 } },
    clock: () => new Date(now + offset),
    ...options.auth,
  };
  const api = await start(withAuth(options.config, auth), options.serve);
  const all = (name: string) =>
    api.db
      .collection(name)
      .find({}, { sort: { _id: 1 } })
      .toArray();
  return {
    url: api.url,
    db: api.db,
    mailbox,
    send: (method, path, send) => request(api.url, method, path, send),
    advance(ms) {
      offset += ms;
    },
    async snapshot() {
      return Object.fromEntries(await Promise.all(WATCHED.map(async (name) => [name, await all(name)])));
    },
  };
}

/** `Authorization: Bearer <token>`. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The `store_session` value a `Set-Cookie` header carries. */
export function cookieToken(reply: AuthReply): string | undefined {
  return /(?:^|,\s*)store_session=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')?.[1];
}
