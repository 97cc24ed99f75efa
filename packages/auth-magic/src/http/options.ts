import { invalidOption, isOptionError, isPlainObject } from '@store/common';
import type { PluginSetupInput, StoreLogger } from '@store/core';
import type { AuthOptions } from '../options';
import { resolveAuthOptions } from '../resolve-options';
import type { ResolvedAuthOptions } from '../resolved-options';

/** The keys `resources.user.auth` accepts: `@store/auth-magic`'s options the store does not own. */
const AUTH_KEYS = [
  'magicLink',
  'magicCode',
  'createUser',
  'emailField',
  'sessionTtl',
  'sessionsCollection',
  'rateLimit',
  'mailer',
  'sendTimeout',
  'isBlocked',
  'clock',
] as const satisfies readonly (keyof AuthOptions)[];

/**
 * `resources.user.auth`: passwordless login (see `docs/auth.md`). A strategy is enabled when its
 * key is an object (`magicCode: {}`); the routes under `/auth/` are mounted when one is.
 * `secret`, `baseUrl` and `logger` come from the top level of the store's config, the user
 * collection from `resources.user.collection` (default `users`).
 */
export type UserAuthConfig = Pick<AuthOptions, (typeof AUTH_KEYS)[number]>;

/** The resource that may carry `auth`: `resources.user`, the one whose documents are the users. */
const USER_RESOURCE = 'user';

/** Where an option of `@store/auth-magic` lives in the store's config. */
const OPTION_NAMES: Readonly<Record<string, string>> = {
  secret: 'secret',
  baseUrl: 'baseUrl',
  logger: 'logger',
  userCollection: `resources.${USER_RESOURCE}.collection`,
};

function storeOptionName(option: string | undefined): string {
  const name = option ?? 'unknown';
  return OPTION_NAMES[name] ?? `resources.${USER_RESOURCE}.auth.${name}`;
}

/** Checks the shape of `resources.<name>.auth`; the values are checked by `resolveAuthOptions`. */
function checkAuthConfig(value: unknown, option: string): UserAuthConfig | null {
  if (value === null) return null;
  if (!isPlainObject(value)) invalidOption(option, 'expected an object such as { magicCode: {} }');
  for (const key of Object.keys(value)) {
    if (!(AUTH_KEYS as readonly string[]).includes(key)) {
      invalidOption(`${option}.${key}`, `unknown option (known: ${AUTH_KEYS.join(', ')})`);
    }
  }
  return value as UserAuthConfig;
}

/** Routes `@store/auth-magic` logs through the store's logger; mail without a mailer goes to stdout. */
function authLogger(logger: StoreLogger): NonNullable<AuthOptions['logger']> {
  const log = (logger as { log?: unknown }).log;
  return {
    warn: (message) => logger.warn(message),
    log:
      typeof log === 'function' ? (message) => log.call(logger, message) : (message) => console.log(message),
  };
}

function resolveOrRename(options: AuthOptions): ResolvedAuthOptions {
  try {
    return resolveAuthOptions(options);
  } catch (error) {
    if (!isOptionError(error)) throw error;
    return invalidOption(storeOptionName(error.option), error.problem);
  }
}

/** Collections auth keeps to itself: users, secrets, sessions, send-limit counters. */
export function authCollections(options: ResolvedAuthOptions): readonly string[] {
  const names = [
    options.userCollection,
    options.magicLink?.collection,
    options.magicCode?.collection,
    options.sessionsCollection,
    options.rateLimit.collection,
  ];
  return names.filter((name) => name !== undefined);
}

/**
 * Resolves `resources.user.auth` once, at `createStore` time, through `resolveAuthOptions` (a
 * bad value throws `invalid_config` naming it, e.g. `resources.user.auth.magicLink.exp`).
 * `null` when no strategy is enabled. Links are built from the store's `baseUrl`, which must
 * then be an absolute http(s) address.
 */
export function resolveUserAuth(input: PluginSetupInput): ResolvedAuthOptions | null {
  const auth = checkAuthConfig(input.value, input.option);
  if (input.resourceName !== USER_RESOURCE) {
    invalidOption(input.option, `only the user resource ("resources.${USER_RESOURCE}") takes auth`);
  }
  if (auth === null || (!auth.magicLink && !auth.magicCode)) return null;
  const { baseUrl, secret, logger, clientAddress } = input.store;
  if (baseUrl === undefined || !/^https?:\/\//i.test(baseUrl)) {
    invalidOption(
      'baseUrl',
      `"resources.${USER_RESOURCE}.auth" needs the store's public absolute http(s) address, such as "https://shop.example/api" (links in mail are built from it, never from a Host header)`,
    );
  }
  const options = resolveOrRename({
    ...auth,
    secret: secret as string | undefined,
    baseUrl,
    userCollection: input.collection,
    logger: authLogger(logger),
  });
  return { ...options, clientAddress };
}
