/**
 * `@store/auth-magic/testing`: unit-test hooks and flows without HTTP or a mail server.
 * @example
 * const { deps, mailer } = createTestAuth({ magicCode: { doVerify } }); // an in-memory database
 * await requestCode(deps, { email: 'ada@example.test' });
 * await verifyCode(deps, { email: 'ada@example.test', code: mailer.lastCodeTo('ada@example.test') });
 */
import { createEmbeddedDb } from '@store/embedded';
import type { AuthDb } from './db';
import { type AuthDeps, createAuthDeps } from './deps';
import type { MailMessage, MailTransport } from './mail-types';
import type { AuthOptions } from './options';
import { resolveAuthOptions } from './resolve-options';
import type { ResolvedAuthOptions } from './resolved-options';

/**
 * A captured message, with the code or link found in its text part.
 * @public (the type of `createCapturingMailer().messages`, part of `@store/auth-magic/testing`)
 */
export interface CapturedMessage extends MailMessage {
  /** The first standalone run of 4-12 digits in the text part, if any. */
  code: string | null;
  /** The first `.../auth/magic-link/<token>` address in the text part, if any. */
  link: string | null;
  /** The token at the end of `link`. */
  linkToken: string | null;
}

/** A transport that records messages instead of sending them. */
export interface CapturingMailer extends MailTransport {
  readonly messages: CapturedMessage[];
  /** The newest message to this address (compared trimmed and lower-cased). */
  lastMessageTo(email: string): CapturedMessage | undefined;
  /** The code of the newest message to this address that carries one; throws when there is none. */
  lastCodeTo(email: string): string;
  /** The link token of the newest message to this address that carries one; throws when there is none. */
  lastLinkTokenTo(email: string): string;
  /** Makes the next `count` sends reject with `error` (as an unreachable server would). */
  failNext(error?: Error & { code?: string; responseCode?: number }, count?: number): void;
  clear(): void;
}

const LINK_PATTERN = /https?:\/\/\S*?\/auth\/magic-link\/([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/;
const CODE_PATTERN = /(?<!\d)(\d{4,12})(?!\d)/;

function capture(message: MailMessage): CapturedMessage {
  const link = LINK_PATTERN.exec(message.text);
  const code = link === null ? CODE_PATTERN.exec(message.text) : null;
  return { ...message, code: code?.[1] ?? null, link: link?.[0] ?? null, linkToken: link?.[1] ?? null };
}

/** A mailer for tests: records every message; see {@link CapturingMailer}. */
export function createCapturingMailer(): CapturingMailer {
  const messages: CapturedMessage[] = [];
  const failures: Error[] = [];
  const lastTo = (email: string, has: (message: CapturedMessage) => boolean = () => true) => {
    const to = email.trim().toLowerCase();
    return messages.findLast((message) => message.to === to && has(message));
  };
  const required = (email: string, value: string | null | undefined, what: string): string => {
    if (value === null || value === undefined) throw new Error(`no ${what} was mailed to ${email}`);
    return value;
  };
  return {
    messages,
    async sendMail(message) {
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      messages.push(capture(message));
      return { captured: true };
    },
    lastMessageTo: (email) => lastTo(email),
    lastCodeTo: (email) => required(email, lastTo(email, (m) => m.code !== null)?.code, 'code'),
    lastLinkTokenTo: (email) =>
      required(email, lastTo(email, (m) => m.linkToken !== null)?.linkToken, 'link'),
    failNext(error = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' }), count = 1) {
      for (let i = 0; i < count; i += 1) failures.push(error);
    },
    clear() {
      messages.length = 0;
      failures.length = 0;
    },
  };
}

/** What {@link createTestAuth} returns. */
export interface TestAuth {
  deps: AuthDeps;
  mailer: CapturingMailer;
  options: ResolvedAuthOptions;
}

const isDb = (value: unknown): value is AuthDb =>
  typeof (value as { collection?: unknown } | undefined)?.collection === 'function';

/**
 * Flow deps with both strategies enabled, a fixed secret, `baseUrl` `http://store.test` and a
 * capturing mailer, on a fresh in-memory embedded database (or the database given first: a
 * driver `Db`, `createEmbeddedDb()`); `options` override any of it (`mailer` always is the
 * capturing one).
 */
export function createTestAuth(options?: AuthOptions): TestAuth;
export function createTestAuth(db: AuthDb, options?: AuthOptions): TestAuth;
export function createTestAuth(dbOrOptions?: AuthDb | AuthOptions, maybeOptions: AuthOptions = {}): TestAuth {
  const db = isDb(dbOrOptions) ? dbOrOptions : createEmbeddedDb();
  const options = isDb(dbOrOptions) ? maybeOptions : (dbOrOptions ?? {});
  const mailer = createCapturingMailer();
  const resolved = resolveAuthOptions({
    ...options,
    magicLink: options.magicLink ?? {},
    magicCode: options.magicCode ?? {},
    secret: options.secret ?? 'test-secret-not-for-production',
    baseUrl: options.baseUrl ?? 'http://store.test',
    mailer,
  });
  return { deps: createAuthDeps(db, resolved), mailer, options: resolved };
}
