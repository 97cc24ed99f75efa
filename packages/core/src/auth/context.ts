import type { AuthDeps, AuthRequest, ResolvedMagicCode, ResolvedMagicLink } from '@store/auth-magic';
import { compileQuery } from '@store/query';
import { storeError } from '../error-codes';
import type { ResolvedStoreOptions } from '../options';
import type { StoreRequest } from '../types';

/** Everything an auth route reads: the request, the flows' deps, the path parameters. */
export interface AuthRouteContext {
  readonly request: StoreRequest;
  /** The upper-case method. */
  readonly method: string;
  readonly options: ResolvedStoreOptions;
  /** The database and the resolved auth options, as every flow takes them. */
  readonly deps: AuthDeps;
  /** Decoded path parameters (`:token`, `:email`). */
  readonly params: Readonly<Record<string, string>>;
  /** What the flows and hooks learn about the request: client IP, user agent, `$$` flags. */
  readonly client: AuthRequest;
}

/** What an auth route answers: JSON `data`, an HTML page, or neither (204, redirects). */
export interface AuthResult {
  status: number;
  data?: unknown;
  /** A server-rendered page (the confirmation page). */
  html?: string;
  /** Extra headers, lower-case names. */
  headers?: Record<string, string>;
}

/** One auth route. */
export type AuthRoute = (ctx: AuthRouteContext) => Promise<AuthResult>;

function header(request: StoreRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Builds the context of an auth request. The query string is compiled like on every route
 * (a bad parameter is a 400); its `$$` flags reach the hooks.
 */
export function createAuthContext(
  request: StoreRequest,
  options: ResolvedStoreOptions,
  deps: AuthDeps,
  params: Readonly<Record<string, string>>,
): AuthRouteContext {
  const rawQuery = request.rawQuery.startsWith('?') ? request.rawQuery.slice(1) : request.rawQuery;
  const { flags } = compileQuery(rawQuery, {
    defaultLimit: options.defaultLimit,
    maxLimit: options.maxLimit,
  });
  const client: AuthRequest = {
    ip: request.ip ?? null,
    userAgent: header(request, 'user-agent') ?? null,
    flags,
  };
  return { request, method: request.method.toUpperCase(), options, deps, params, client };
}

/** The enabled `magicLink` options (the route table mounts link routes only when it is). */
export function linkOptions(ctx: AuthRouteContext): ResolvedMagicLink {
  const strategy = ctx.deps.options.magicLink;
  if (strategy === null) throw storeError('not_found', 'Magic links are not enabled.');
  return strategy;
}

/** The enabled `magicCode` options. */
export function codeOptions(ctx: AuthRouteContext): ResolvedMagicCode {
  const strategy = ctx.deps.options.magicCode;
  if (strategy === null) throw storeError('not_found', 'Magic codes are not enabled.');
  return strategy;
}
