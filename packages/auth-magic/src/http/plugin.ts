import type { StoreDb } from '@store/common';
import type {
  PluginAnswer,
  PluginInstance,
  PluginRequest,
  PluginResourceRoute,
  PluginRuntime,
  PluginStoreSeams,
  RequestSession,
  ResourcePlugin,
  StoreDescription,
  StoreRequest,
} from '@store/core';
import { type AuthDeps, createAuthDeps, ensureAuthIndexes } from '../deps';
import { AUTH_ERROR_CODES } from '../error-codes';
import type { ResolvedAuthOptions } from '../resolved-options';
import { sessionTokenFromHeaders } from '../session-http';
import { checkSessions, findSession, revokeUserSessions } from '../sessions';
import { isBlockedUser } from '../users';
import { type AuthStoreSettings, createAuthContext } from './context';
import { describeAuthRoutes } from './openapi';
import { authCollections, resolveUserAuth, type UserAuthConfig } from './options';
import { authRouteFor, matchAuthRoute } from './route-table';

/** Where the sign-in routes live (`route-table.ts` matches under it). */
const AUTH_PREFIX = '/auth';

declare module '@store/core' {
  interface PluginResourceOptions {
    /**
     * Passwordless login, on the user resource only (`resources.user.auth.magicLink` /
     * `.magicCode`; see docs/auth.md), with `plugins: [magicAuth]`. The user resource's
     * collection then defaults to `users`, routed as `/users` (owner of its own `_id`).
     * @default undefined (no auth routes)
     */
    auth?: UserAuthConfig | null;
  }
}

/**
 * The live session a resource request carries (`Authorization: Bearer` or the `store_session`
 * cookie), for `ctx.user` / `ctx.session`, with its `id` (the session document's `_id`); `null`
 * without a token, or when the token is unknown, expired, revoked or its user is gone or blocked
 * (access rules decide what anonymity may do).
 */
export async function findRequestSession(
  request: StoreRequest,
  deps: AuthDeps,
): Promise<RequestSession | null> {
  const token = sessionTokenFromHeaders(request.headers);
  return token === null ? null : findSession(deps, token);
}

/** What the plugin keeps of the store it is set up in. */
interface StoreOfPlugin {
  readonly bodyLimit: number;
  /** The store's description, complete once `createStore` has returned (read at request time). */
  describe(): StoreDescription;
}

/** Answers a request under `/auth`, or `null` when it names no auth route (docs/auth.md#routes). */
async function answerAuth(
  request: PluginRequest,
  deps: AuthDeps,
  store: AuthStoreSettings,
): Promise<PluginAnswer | null> {
  const match = matchAuthRoute(request.request.path, deps.options);
  if (match === undefined) return null;
  const route = authRouteFor(match, request.method);
  return route(createAuthContext(request, deps, store, match.params));
}

function runtime(deps: AuthDeps, store: StoreOfPlugin): PluginRuntime {
  let settings: AuthStoreSettings | undefined;
  // Read once, at the first request: the description is complete by then, and fixed.
  const settingsOf = () => {
    settings ??= { bodyLimit: store.bodyLimit, wireId: store.describe().wireId };
    return settings;
  };
  return {
    answer: (request) => answerAuth(request, deps, settingsOf()),
    findSession: (request) => findRequestSession(request, deps),
    checkSessions: (sessions) => checkSessions(deps, sessions),
  };
}

/**
 * Writes to the user resource through the store's REST routes (an administrator's `PATCH` with
 * `blocked: true`, a `DELETE`): a blocked or deleted user's sessions end at once, with their
 * event streams. Writes made around the store are caught by the streams' keep-alive check.
 */
function userHooks(deps: () => AuthDeps | null): NonNullable<PluginResourceRoute['hooks']> {
  return {
    async afterWrite(_ctx, { after }) {
      const started = deps();
      if (started !== null && isBlockedUser(started, after)) await revokeUserSessions(started, after._id);
    },
    async afterDelete(_ctx, user) {
      const started = deps();
      if (started !== null) await revokeUserSessions(started, user._id);
    },
  };
}

/** The plugin as resolved for one store: a `PluginInstance` that also shows its resolved options. */
export interface MagicAuthInstance extends PluginInstance {
  readonly options: ResolvedAuthOptions;
  /**
   * Ends every session of the user at once, and their event streams (see `revokeUserSessions`);
   * how many there were. Rejects before the store's storage is open.
   */
  revokeUserSessions(userId: unknown): Promise<number>;
}

function instance(options: ResolvedAuthOptions, store: StoreOfPlugin): MagicAuthInstance {
  let started: AuthDeps | null = null;
  const managedFields = [...new Set([options.magicLink?.emailField, options.magicCode?.emailField])];
  return {
    options,
    collections: authCollections(options),
    resource: {
      routeAs: options.userCollection,
      defaultAccess: {
        rule: { read: 'owner', update: 'owner', delete: 'owner', create: 'none' },
        ownerField: '_id',
      },
      managedFields: managedFields.filter((field): field is string => field !== undefined),
      hooks: userHooks(() => started),
    },
    routePaths: [AUTH_PREFIX],
    // Every answer, errors included: they carry sessions, or reveal whether a secret is live.
    answerHeaders: { 'cache-control': 'no-store' },
    openapi: describeAuthRoutes(options, AUTH_PREFIX),
    async start(db: StoreDb, seams: PluginStoreSeams) {
      const deps = createAuthDeps(db, options, seams);
      await ensureAuthIndexes(deps);
      started = deps;
      return runtime(deps, store);
    },
    async revokeUserSessions(userId: unknown) {
      if (started === null) throw new Error('@store/auth-magic: the store has not started yet');
      return revokeUserSessions(started, userId);
    },
  };
}

/**
 * The passwordless sign-in plugin: `createStore({ plugins: [magicAuth], resources: { user: {
 * auth: { magicCode: {}, magicLink: {} } } } })` mounts the sign-in routes (docs/auth.md#routes) under
 * `/auth`, keeps users, secrets, sessions and send limits in collections no resource route
 * reaches, and gives every request its session.
 */
export const magicAuth: ResourcePlugin = {
  name: '@store/auth-magic',
  resourceOption: 'auth',
  defaultCollection: (resourceName) => `${resourceName}s`,
  errorCodes: AUTH_ERROR_CODES,
  setup(input) {
    const options = resolveUserAuth(input);
    return options === null ? null : instance(options, input.store);
  },
};
