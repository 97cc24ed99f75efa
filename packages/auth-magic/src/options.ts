import type { AuthDb, AuthDocument } from './db';
import type { DurationInput } from './duration';
import type { MagicEmailOptions, MailerOption } from './mail-types';

/** What the flows know about the HTTP request, passed through to hooks. Never used for links. */
export interface AuthRequest {
  /**
   * Client IP, as the host's proxy settings (or the store's `trustedProxies`) determined it. Used
   * by the per-IP limit.
   */
  ip?: string | null;
  /** `User-Agent` header, shown on the confirmation page. */
  userAgent?: string | null;
  /** `$$name` flags of the request. */
  flags?: Readonly<Record<string, unknown>>;
}

/** The one plain object every hook receives. */
export interface AuthHookContext {
  /** The normalized (trimmed, lower-cased) address. */
  email: string;
  /** The user document, or `null` when no user has this address (yet). */
  user: AuthDocument | null;
  /** The secret the flow handles: the code, the link token or the poll token. */
  token: string;
  request: AuthRequest;
  flags: Readonly<Record<string, unknown>>;
  db: AuthDb;
}

/**
 * A hook. Throwing aborts the flow: an error with an HTTP `status` (and optional snake_case
 * `code`) gives that answer, anything else a 403 `forbidden`. Nothing is changed by an abort.
 */
export type AuthHook = (context: AuthHookContext) => Promise<void> | void;

/** Options shared by both strategies (docs/auth.md#options). */
export interface MagicStrategyOptions {
  /** Field holding the address in the user document. @default AuthOptions.emailField ('email') */
  emailField?: string;
  /** Collection of issued secrets. @default 'svc-magic-links' (links), 'svc-magic-codes' (codes) */
  collection?: string;
  /** Active secrets per address; a new one beyond it retires the oldest. @default 3 */
  max?: number;
  /** Lifetime: `ms` string or natural language. @default 'in one day' (links), '10 minutes' (codes) */
  exp?: DurationInput;
  /** Redirect target when the user is not found. @default null (answer 404 `user_not_found`) */
  redirectNotFound?: string | null;
  /** Redirect target when the secret was already used. @default null (answer 409 `already_used`) */
  redirectAlreadyUsed?: string | null;
  /** Redirect target on success, with the session cookie set. @default null (answer 200 with the session) */
  redirectSuccess?: string | null;
  /** Runs when a secret is verified, before anything changes. @default null */
  doVerify?: AuthHook | null;
  /** Runs when a secret is requested, before it is created and sent. @default null */
  doGenerate?: AuthHook | null;
  /** Runs before a session is handed out, before anything changes. @default null */
  doRetrieve?: AuthHook | null;
  /** Message options. @default see {@link MagicEmailOptions} */
  email?: MagicEmailOptions;
}

/** `resources.user.auth.magicLink`. */
export interface MagicLinkOptions extends MagicStrategyOptions {
  /**
   * The host's own confirmation page for poll links: opening a poll link redirects (302) there
   * with `?token=<link token>` instead of rendering the built-in page. @default null
   */
  pollApproval?: string | null;
  /** Seconds a polling device is told to wait (`Retry-After`) while pending. @default 2 */
  pollInterval?: number;
}

/** `resources.user.auth.magicCode`. */
export interface MagicCodeOptions extends MagicStrategyOptions {
  /** Digits in a code. @default 6 */
  length?: number;
  /**
   * Wrong guesses one client (an IPv4 address, an IPv6 /64) may make for an address within a
   * code's lifetime; past it that client's guesses for the address answer 429 and count nothing.
   * @default 5
   */
  maxAttempts?: number;
  /** Wrong guesses from all clients together before the address's active codes are dead. @default 10 * maxAttempts */
  maxGuesses?: number;
}

/** A sliding-window limit: at most `max` within any `window`. */
export interface RateLimitRule {
  /** Hits allowed within any window. */
  max?: number;
  /** Window length (`ms` string, natural language or milliseconds). */
  window?: DurationInput;
}

/** Limits on requests that send mail, kept in the database so processes share them. */
export interface RateLimitOptions {
  /** @default 'svc-rate-limits' */
  collection?: string;
  /**
   * Mail sent per address, for codes and for links each (a failed send is not counted); past it
   * the newest live secret is extended instead, or 429 without one. `null` disables it.
   * @default { max: 5, window: '1 hour' }
   */
  perAddress?: RateLimitRule | null;
  /** Requests per client (IPv4 address, IPv6 /64); `null` disables it. @default { max: 30, window: '1 minute' } */
  perIp?: RateLimitRule | null;
}

/** Where log lines go. */
export interface AuthLogger {
  warn(message: string): void;
  log(message: string): void;
}

/** Everything `@store/auth-magic` accepts. A strategy is enabled when its key is an object. */
export interface AuthOptions {
  /** @default null (disabled) */
  magicLink?: MagicLinkOptions | null;
  /** @default null (disabled) */
  magicCode?: MagicCodeOptions | null;
  /** Create a missing user when a secret is verified (never on request). @default true */
  createUser?: boolean;
  /** Collection of user documents. @default 'users' */
  userCollection?: string;
  /** Field holding the address in user documents. @default 'email' */
  emailField?: string;
  /** Key of the HMAC over every stored secret (`STORE_SECRET`), >= 16 characters. @default random, with a warning */
  secret?: string;
  /** Public http(s) address links are built from; required with `magicLink`. @default null */
  baseUrl?: string | null;
  /** Session lifetime. @default '30 days' */
  sessionTtl?: DurationInput;
  /** Collection of sessions (hashed tokens). @default 'svc-sessions' */
  sessionsCollection?: string;
  /** @default { collection: 'svc-rate-limits', perAddress: 5 an hour, perIp: 30 a minute } */
  rateLimit?: RateLimitOptions;
  /** Transporter, transport options or SMTP URL. @default null (messages printed to stdout, one warning) */
  mailer?: MailerOption;
  /**
   * How long one send may take before the request answers 503 `mail_unavailable`; also the
   * connection, greeting and socket timeouts of a transport built from an SMTP URL or options.
   * @default '15 seconds'
   */
  sendTimeout?: DurationInput;
  /**
   * Whether a user document is blocked: a blocked user cannot sign in (403 `account_blocked`) and
   * every session of theirs is refused and revoked when next seen. `null` disables the check.
   * @default (user) => user.blocked === true
   */
  isBlocked?: ((user: AuthDocument) => boolean) | null;
  /** @default console */
  logger?: AuthLogger;
  /** Current time; tests replace it to reach expiry without waiting. @default () => new Date() */
  clock?: () => Date;
}
