import { type AuthOptions, type ResolvedAuthOptions, resolveAuthOptions } from '@store/auth-magic';
import { invalidOption, isOptionError, isPlainObject } from '@store/common';
import { INTERNAL_COLLECTIONS, type ResolvedResource } from '../resources';
import type { StoreLogger } from '../types';

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
  'clock',
] as const satisfies readonly (keyof AuthOptions)[];

/**
 * `resources.user.auth`: passwordless login (see `docs/auth.md`). A strategy is enabled when its
 * key is an object (`magicCode: {}`); the routes under `/auth/` are mounted when one is.
 * `secret`, `baseUrl` and `logger` come from the top level of the store's config, the user
 * collection from `resources.user.collection` (default `users`).
 */
export type UserAuthConfig = Pick<AuthOptions, (typeof AUTH_KEYS)[number]>;

/** The resource that may carry `auth`: the contract's user resource. */
export const USER_RESOURCE = 'user';

/** Passwordless login, resolved once at `createStore` time. */
export interface StoreAuth {
  /** The user resource's name (`user`). */
  readonly resource: string;
  readonly options: ResolvedAuthOptions;
  /** Collections auth keeps to itself: users, secrets, sessions, send-limit counters. */
  readonly collections: ReadonlySet<string>;
}

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

/** Checks the shape of `resources.<name>.auth`; the values are checked by {@link resolveStoreAuth}. */
export function checkAuthConfig(value: unknown, option: string): UserAuthConfig | null {
  if (value === null) return null;
  if (!option.startsWith(`resources.${USER_RESOURCE}.`)) {
    invalidOption(option, `only the user resource ("resources.${USER_RESOURCE}") takes auth`);
  }
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

/** What {@link resolveStoreAuth} reads from the store's config. */
export interface StoreAuthInput {
  /** The resolved resources (the user resource's collection, and the others to check). */
  resources: ReadonlyMap<string, ResolvedResource>;
  /** `config.resources` as given: each resource's `auth` is checked here. */
  config: Readonly<Record<string, { auth?: unknown }>>;
  /** The store's resolved `baseUrl`. */
  baseUrl: string | undefined;
  /** The store's `secret` (unchecked). */
  secret: unknown;
  logger: StoreLogger;
}

function authCollections(options: ResolvedAuthOptions): ReadonlySet<string> {
  const names = [
    options.userCollection,
    options.magicLink?.collection,
    options.magicCode?.collection,
    options.sessionsCollection,
    options.rateLimit.collection,
  ];
  return new Set([...INTERNAL_COLLECTIONS, ...names.filter((name) => name !== undefined)]);
}

/**
 * Resolves `resources.user.auth` once, at `createStore` time, through `@store/auth-magic`'s
 * `resolveAuthOptions` (a bad value throws `invalid_config` naming it, e.g.
 * `resources.user.auth.magicLink.exp`). `null` when no strategy is enabled. Links are built
 * from the store's `baseUrl`, which must then be an absolute http(s) address. No other resource
 * may live in a collection auth keeps (the users hold e-mail addresses).
 */
export function resolveStoreAuth(input: StoreAuthInput): StoreAuth | null {
  const user = input.resources.get(USER_RESOURCE);
  let auth: UserAuthConfig | null | undefined;
  for (const [name, resource] of Object.entries(input.config)) {
    if (resource.auth !== undefined) auth = checkAuthConfig(resource.auth, `resources.${name}.auth`);
  }
  if (!auth || user === undefined || (!auth.magicLink && !auth.magicCode)) return null;
  if (input.baseUrl === undefined || !/^https?:\/\//i.test(input.baseUrl)) {
    invalidOption(
      'baseUrl',
      `"resources.${USER_RESOURCE}.auth" needs the store's public absolute http(s) address, such as "https://shop.example/api" (links in mail are built from it, never from a Host header)`,
    );
  }
  const options = resolveOrRename({
    ...auth,
    secret: input.secret as string | undefined,
    baseUrl: input.baseUrl,
    userCollection: user.collection,
    logger: authLogger(input.logger),
  });
  const collections = authCollections(options);
  for (const resource of input.resources.values()) {
    if (resource.name !== USER_RESOURCE && collections.has(resource.collection)) {
      invalidOption(
        `resources.${resource.name}`,
        `"${resource.collection}" is an internal collection of the store`,
      );
    }
  }
  return { resource: USER_RESOURCE, options, collections };
}
