import { authorize, isOpenAccess } from '../access/grant';
import { createContext } from '../access/request-context';
import { resolveStoreOptions } from '../config/options';
import { clientKeyOf } from '../http/client-key';
import { answerPreflight, isPreflight, withCorsHeaders } from '../http/cors';
import { tagged, withEtag } from '../http/etag';
import { QueryCache } from '../http/query-cache';
import { type RateLimitCharge, RateLimiter, rateLimitClass, withRateLimitHeaders } from '../http/rate-limit';
import { renderError } from '../http/render-error';
import { withUpperCaseMethod } from '../http/request-method';
import { jsonResponse, respond } from '../http/respond';
import type { StoreConfig } from '../model/config';
import type { RequestSession } from '../model/hooks';
import type { StoreHandler, StoreRequest, StoreResponse } from '../model/http';
import type { ResolvedStoreOptions } from '../model/options';
import type { PluginInstance } from '../model/plugin';
import { answerText, keptText } from '../read/answer-bytes';
import { DocumentAnswers } from '../read/document-answers';
import { withBudgets } from '../read/request-budgets';
import { ChangeFeed } from '../realtime/change-feed';
import { realtimeSeam } from '../realtime/realtime-seam';
import { openEventStream, wantsEvents } from '../realtime/subscribe';
import { type StorageHandle, startStorage } from '../storage/start-storage';
import { answerPlugin, pluginFor } from './answer-plugin';
import { checkSessions, findSession } from './plugin-sessions';
import { routeFor } from './route-table';
import { matchRoute } from './router';

/** What one store keeps from request to request: compiled query strings, and document answers. */
interface Kept {
  readonly queries: QueryCache;
  readonly answers: DocumentAnswers;
}

async function answerResource(
  request: StoreRequest,
  options: ResolvedStoreOptions,
  storage: StorageHandle,
  feed: ChangeFeed | undefined,
  { queries, answers }: Kept,
  /** The session the rate limit already looked up (`undefined`: not looked up yet). */
  found?: RequestSession | null,
): Promise<StoreResponse | null> {
  const match = matchRoute(request.path, options);
  if (!match) return null;
  try {
    const route = routeFor(match.kind, request.method);
    // Neither is a promise once the store has started and when no plugin finds sessions.
    const current = storage.current();
    const started = current instanceof Promise ? await current : current;
    const looked = found === undefined ? findSession(request, started) : found;
    const session = looked instanceof Promise ? await looked : looked;
    const budgeted = withBudgets(
      createContext(
        request,
        options,
        started.db,
        match,
        queries.of(request, match.children ?? match.resource),
        session,
      ),
    );
    // Awaited only when a budget function answered a promise: most requests wait for nothing.
    const base = budgeted instanceof Promise ? await budgeted : budgeted;
    const ctx = isOpenAccess(base, base.operation) ? base : await authorize(base);
    if (feed !== undefined && wantsEvents(request, match)) return await openEventStream(ctx, feed);
    const slot = answers.slot(ctx, queries.isBare(ctx.query));
    const kept = slot && answers.find(slot);
    if (kept !== undefined) return tagged(request, jsonResponse(200, keptText(ctx, kept)), kept.etag);
    const result = await route(ctx);
    const answered = result.data === undefined ? undefined : answerText(ctx, result.data);
    const text = answered instanceof Promise ? await answered : answered;
    const response = withEtag(request, respond(result, text), result.revision !== undefined);
    const { etag } = response.headers;
    if (slot !== undefined && text !== undefined && result.status === 200 && etag !== undefined) {
      answers.keep(slot, text, etag);
    }
    return response;
  } catch (error) {
    return renderError(error, options.logger, options.dialects.foreign);
  }
}

/** What the rate limit made of a request before any route ran. */
interface Limited {
  readonly charge: RateLimitCharge;
  /** The session the client was counted by (`null`: counted by its address). */
  readonly session: RequestSession | null;
  /** The answer instead of the route's: the 429, or why the session could not be looked up. */
  readonly answer: StoreResponse | undefined;
}

/**
 * Counts a request of the store (resource or plugin route) in its client's bucket, before it
 * reaches a resource or a plugin: only the session lookup, which names the client, comes first.
 * `undefined` when the path is not the store's, or its class is not counted.
 */
async function limit(
  request: StoreRequest,
  plugin: PluginInstance | undefined,
  options: ResolvedStoreOptions,
  storage: StorageHandle,
  feed: ChangeFeed | undefined,
  limiter: RateLimiter,
): Promise<Limited | undefined> {
  const match = plugin === undefined ? matchRoute(request.path, options) : undefined;
  if (plugin === undefined && match === undefined) return undefined;
  const opensStream = feed !== undefined && match !== undefined && wantsEvents(request, match);
  const kind = rateLimitClass(request, opensStream);
  if (kind === undefined || !limiter.limits(kind)) return undefined;
  let session: RequestSession | null = null;
  let failure: unknown;
  try {
    session = await findSession(request, await storage.current());
  } catch (error) {
    failure = error;
  }
  const charge = limiter.charge(kind, clientKeyOf(request, session, options.trustedProxies));
  if (charge === undefined) return undefined;
  const error = charge.refused ?? failure;
  return {
    charge,
    session,
    answer: error === undefined ? undefined : renderError(error, options.logger, options.dialects.foreign),
  };
}

/**
 * Plugin routes first (`/auth/session` would otherwise read as `/<res>/<id>`; a path under a
 * plugin's prefix that names none of its routes is not the store's), then resource routes.
 */
async function answer(
  request: StoreRequest,
  options: ResolvedStoreOptions,
  storage: StorageHandle,
  feed: ChangeFeed | undefined,
  kept: Kept,
  limiter: RateLimiter | undefined,
): Promise<StoreResponse | null> {
  const plugin = pluginFor(request.path, options);
  const { cors } = options;
  if (cors !== undefined && isPreflight(request)) {
    const ours = plugin !== undefined || matchRoute(request.path, options) !== undefined;
    if (!ours) return null;
    try {
      return answerPreflight(request, cors);
    } catch (error) {
      return renderError(error, options.logger, options.dialects.foreign);
    }
  }
  const limited = limiter && (await limit(request, plugin, options, storage, feed, limiter));
  const answered =
    limited?.answer ??
    (plugin === undefined
      ? await answerResource(request, options, storage, feed, kept, limited?.session)
      : await answerPlugin(request, plugin, options, storage, kept.queries));
  if (answered === null) return null;
  const counted = limited === undefined ? answered : withRateLimitHeaders(answered, limited.charge);
  const response = cors === undefined ? counted : withCorsHeaders(request, counted, cors);
  // HEAD answers carry the headers of the GET, errors included, and never a body.
  return request.method === 'HEAD' ? { status: response.status, headers: response.headers } : response;
}

/**
 * Creates the framework-agnostic store: resolves `config` (throwing an `OptionError`, code
 * `invalid_config` that names a bad option), starts opening storage, and returns the
 * handler adapters call. It answers `null` for paths that are neither resource routes nor
 * routes of a plugin.
 */
export function createStoreHandler(config: StoreConfig = {}): StoreHandler {
  const options = resolveStoreOptions(config);
  const feed = options.realtime && new ChangeFeed(options.realtime, options.logger);
  // At each keep-alive, streams whose session ended elsewhere (another process) end too.
  feed?.useSessionCheck(checkSessions);
  const storage = startStorage(options, feed && realtimeSeam(feed, options.logger));
  let closing = false;
  storage.ready.catch((error: unknown) => {
    // Closed while the database was still out of reach: nothing failed, the store just stopped.
    if (!closing) options.logger.error('[@store/core] storage could not be opened', error);
  });
  const ready = storage.ready;
  // `ready` is for callers to await; a caller that does not must not crash the process.
  ready.catch(() => undefined);
  const close = () => {
    closing = true;
    return Promise.all([feed?.close(), storage.close()]).then(() => undefined);
  };
  const queries = new QueryCache(
    {
      defaultLimit: options.defaultLimit,
      maxLimit: options.maxLimit,
      wireId: options.wireId,
    },
    options,
  );
  const kept: Kept = { queries, answers: new DocumentAnswers() };
  // Rate-limit buckets live in this handler's memory: each process counts on its own.
  const limiter = options.rateLimit && new RateLimiter(options.rateLimit);
  const handler = (request: StoreRequest) =>
    answer(withUpperCaseMethod(request), options, storage, feed, kept, limiter);
  return Object.assign(handler, { ready, close });
}
