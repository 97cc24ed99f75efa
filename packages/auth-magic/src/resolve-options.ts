import { randomBytes } from 'node:crypto';
import { invalidOption } from '@store/common';
import type { AuthDocument } from './db';
import { createMailTransport } from './mail';
import {
  boolean,
  baseUrl as checkBaseUrl,
  collectionName,
  durationMs,
  fieldName,
  integer,
  optionalFunction,
} from './option-checks';
import type { AuthOptions, RateLimitRule } from './options';
import { resolveMagicCode, resolveMagicLink } from './resolve-strategies';
import type { ResolvedAuthOptions, ResolvedRateRule } from './resolved-options';

function resolveRule(
  name: string,
  rule: RateLimitRule | null | undefined,
  max: number,
  window: string,
  now: Date,
): ResolvedRateRule | null {
  if (rule === null) return null;
  return {
    max: integer(`${name}.max`, rule?.max, max, 1, 1_000_000),
    windowMs: durationMs(`${name}.window`, rule?.window, window, now),
  };
}

/** The default `isBlocked`: the user document says `blocked: true`. */
const blockedField = (user: AuthDocument): boolean => user.blocked === true;

function resolveSecret(options: AuthOptions, warn: (message: string) => void): string {
  if (options.secret === undefined) {
    warn(
      '[auth-magic] no `secret` (STORE_SECRET): using a random one; sessions and secrets end with this process',
    );
    return randomBytes(32).toString('base64url');
  }
  if (typeof options.secret !== 'string' || options.secret.length < 16) {
    invalidOption('secret', 'expected a string of at least 16 characters');
  }
  return options.secret;
}

/**
 * Applies every default (with `??`) and validates every option, failing fast with the option's
 * name (an `OptionError`, code `invalid_config`). Durations are converted to milliseconds
 * here, once, so an unparsable `exp` fails at start-up, never at request time.
 */
export function resolveAuthOptions(options: AuthOptions = {}): ResolvedAuthOptions {
  const logger = options.logger ?? console;
  const clock = optionalFunction<() => Date>('clock', options.clock) ?? (() => new Date());
  const now = clock();
  const base = checkBaseUrl('baseUrl', options.baseUrl);
  const emailField = fieldName('emailField', options.emailField, 'email');
  const shared = {
    emailField,
    from: `no-reply@${base === null ? 'localhost' : new URL(base).hostname}`,
    now,
  };
  const magicLink = options.magicLink ? resolveMagicLink(options.magicLink, shared) : null;
  if (magicLink !== null && base === null) invalidOption('baseUrl', 'required when magicLink is enabled');
  const rateLimit = options.rateLimit ?? {};
  const sendTimeoutMs = durationMs('sendTimeout', options.sendTimeout, '15 seconds', now);
  return {
    magicLink,
    magicCode: options.magicCode ? resolveMagicCode(options.magicCode, shared) : null,
    createUser: boolean('createUser', options.createUser, true),
    userCollection: collectionName('userCollection', options.userCollection, 'users'),
    secret: resolveSecret(options, (message) => logger.warn(message)),
    baseUrl: base,
    secureCookie: base?.startsWith('https:') ?? false,
    sessionTtlMs: durationMs('sessionTtl', options.sessionTtl, '30 days', now),
    sessionsCollection: collectionName('sessionsCollection', options.sessionsCollection, 'svc-sessions'),
    rateLimit: {
      collection: collectionName('rateLimit.collection', rateLimit.collection, 'svc-rate-limits'),
      perAddress: resolveRule('rateLimit.perAddress', rateLimit.perAddress, 5, '1 hour', now),
      perIp: resolveRule('rateLimit.perIp', rateLimit.perIp, 30, '1 minute', now),
    },
    mailer: createMailTransport(options.mailer, logger, sendTimeoutMs),
    sendTimeoutMs,
    isBlocked:
      options.isBlocked === null
        ? null
        : (optionalFunction<(user: AuthDocument) => boolean>('isBlocked', options.isBlocked) ?? blockedField),
    logger,
    clock,
    clientAddress: (request) => request.ip ?? '',
  };
}
