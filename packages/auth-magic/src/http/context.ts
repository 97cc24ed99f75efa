import type { PluginAnswer, PluginRequest, StoreRequest, WireId } from '@store/core';
import type { AuthDeps } from '../deps';
import { AuthError } from '../errors';
import type { AuthRequest } from '../options';
import type { ResolvedMagicCode, ResolvedMagicLink } from '../resolved-options';

/** Everything an auth route reads: the request, the flows' deps, the path parameters. */
export interface AuthRouteContext {
  readonly request: StoreRequest;
  /** The upper-case method. */
  readonly method: string;
  /** The store's `bodyLimit` (auth routes read at most 16 KiB of it). */
  readonly bodyLimit: number;
  /** The store's `wireId`: the name the user documents an answer carries show their `_id` under. */
  readonly wireId: WireId;
  /** The database and the resolved auth options, as every flow takes them. */
  readonly deps: AuthDeps;
  /** Decoded path parameters (`:token`, `:email`). */
  readonly params: Readonly<Record<string, string>>;
  /** What the flows and hooks learn about the request: client IP, user agent, `$$` flags. */
  readonly client: AuthRequest;
}

/** What an auth route answers: JSON `data`, an HTML page, or neither (204, redirects). */
export type AuthResult = PluginAnswer;

/** What an auth request reads of the store's own settings. */
export interface AuthStoreSettings {
  readonly bodyLimit: number;
  readonly wireId: WireId;
}

/** One auth route. */
export type AuthRoute = (ctx: AuthRouteContext) => Promise<AuthResult>;

function header(request: StoreRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Builds the context of an auth request: its client address read through the store's
 * `trustedProxies`; its `$$` flags (compiled by core) reach the hooks; the store's `bodyLimit`
 * and `wireId`.
 */
export function createAuthContext(
  { request, method, flags }: PluginRequest,
  deps: AuthDeps,
  { bodyLimit, wireId }: AuthStoreSettings,
  params: Readonly<Record<string, string>>,
): AuthRouteContext {
  const ip = deps.options.clientAddress(request);
  const client: AuthRequest = {
    ip: ip === '' ? null : ip,
    userAgent: header(request, 'user-agent') ?? null,
    flags,
  };
  return { request, method, bodyLimit, wireId, deps, params, client };
}

/** The enabled `magicLink` options (the route table mounts link routes only when it is). */
export function linkOptions(ctx: AuthRouteContext): ResolvedMagicLink {
  const strategy = ctx.deps.options.magicLink;
  if (strategy === null) throw new AuthError('not_found', 'Magic links are not enabled.');
  return strategy;
}

/** The enabled `magicCode` options. */
export function codeOptions(ctx: AuthRouteContext): ResolvedMagicCode {
  const strategy = ctx.deps.options.magicCode;
  if (strategy === null) throw new AuthError('not_found', 'Magic codes are not enabled.');
  return strategy;
}
