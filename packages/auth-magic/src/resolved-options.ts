import type { StoreRequest } from '@store/core';
import type { AuthDocument } from './db';
import type { MailPart, MailTransport } from './mail-types';
import type { AuthHook, AuthLogger } from './options';

/** Message options with every default applied. */
export interface ResolvedEmail {
  from: string;
  subject: string;
  text: MailPart;
  html: MailPart;
  replyTo: string | undefined;
  headers: Record<string, string> | undefined;
}

/** A strategy's options with every default applied; durations in milliseconds. */
export interface ResolvedStrategy {
  emailField: string;
  collection: string;
  max: number;
  expMs: number;
  redirectNotFound: string | null;
  redirectAlreadyUsed: string | null;
  redirectSuccess: string | null;
  doVerify: AuthHook | null;
  doGenerate: AuthHook | null;
  doRetrieve: AuthHook | null;
  email: ResolvedEmail;
}

/** `magicLink` resolved. */
export interface ResolvedMagicLink extends ResolvedStrategy {
  pollApproval: string | null;
  pollInterval: number;
}

/** `magicCode` resolved. */
export interface ResolvedMagicCode extends ResolvedStrategy {
  length: number;
  maxAttempts: number;
  maxGuesses: number;
}

/** A send limit resolved. */
export interface ResolvedRateRule {
  max: number;
  windowMs: number;
}

/** What `resolveAuthOptions()` returns; the only options the flows read. */
export interface ResolvedAuthOptions {
  magicLink: ResolvedMagicLink | null;
  magicCode: ResolvedMagicCode | null;
  createUser: boolean;
  userCollection: string;
  secret: string;
  baseUrl: string | null;
  /** True when `baseUrl` is https: the session cookie gets `Secure`. */
  secureCookie: boolean;
  sessionTtlMs: number;
  sessionsCollection: string;
  rateLimit: {
    collection: string;
    perAddress: ResolvedRateRule | null;
    perIp: ResolvedRateRule | null;
  };
  mailer: MailTransport;
  sendTimeoutMs: number;
  isBlocked: ((user: AuthDocument) => boolean) | null;
  logger: AuthLogger;
  clock: () => Date;
  /**
   * The client's address of a request to an auth route, for the per-IP send limit, the guess
   * limit and hooks: the store's (`trustedProxies` applied) under `createStore`; `request.ip`
   * on its own.
   */
  clientAddress: (request: StoreRequest) => string;
}
