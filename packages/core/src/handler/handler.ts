import { authorize, isOpenAccess } from '../access/grant';
import { createContext } from '../access/request-context';
import { resolveStoreOptions } from '../config/options';
import { answerPreflight, isPreflight, withCorsHeaders } from '../http/cors';
import { withEtag } from '../http/etag';
import { QueryCache } from '../http/query-cache';
import { renderError } from '../http/render-error';
import { respond } from '../http/respond';
import type { StoreConfig } from '../model/config';
import type { StoreHandler, StoreRequest, StoreResponse } from '../model/http';
import type { ResolvedStoreOptions } from '../model/options';
import { ChangeFeed } from '../realtime/change-feed';
import { realtimeSeam } from '../realtime/realtime-seam';
import { openEventStream, wantsEvents } from '../realtime/subscribe';
import { type StorageHandle, startStorage } from '../storage/start-storage';
import { answerPlugin, pluginFor } from './answer-plugin';
import { checkSessions, findSession } from './plugin-sessions';
import { routeFor } from './route-table';
import { matchRoute } from './router';

async function answerResource(
  request: StoreRequest,
  options: ResolvedStoreOptions,
  storage: StorageHandle,
  feed: ChangeFeed | undefined,
  queries: QueryCache,
): Promise<StoreResponse | null> {
  const match = matchRoute(request.path, options);
  if (!match) return null;
  try {
    const route = routeFor(match.kind, request.method);
    const started = await storage.current();
    const session = await findSession(request, started);
    const base = createContext(request, options, started.db, match, queries.of(request), session);
    const ctx = isOpenAccess(base, base.operation) ? base : await authorize(base);
    if (feed !== undefined && wantsEvents(request, match)) return await openEventStream(ctx, feed);
    const result = await route(ctx);
    return withEtag(request, respond(result), result.revision);
  } catch (error) {
    return renderError(error, options.logger);
  }
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
  queries: QueryCache,
): Promise<StoreResponse | null> {
  const plugin = pluginFor(request.path, options);
  const { cors } = options;
  if (cors !== undefined && isPreflight(request)) {
    const ours = plugin !== undefined || matchRoute(request.path, options) !== undefined;
    if (!ours) return null;
    try {
      return answerPreflight(request, cors);
    } catch (error) {
      return renderError(error, options.logger);
    }
  }
  const answered =
    plugin === undefined
      ? await answerResource(request, options, storage, feed, queries)
      : await answerPlugin(request, plugin, options, storage, queries);
  if (answered === null) return null;
  const response = cors === undefined ? answered : withCorsHeaders(request, answered, cors);
  // HEAD answers carry the headers of the GET, errors included, and never a body.
  return request.method.toUpperCase() === 'HEAD'
    ? { status: response.status, headers: response.headers }
    : response;
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
  const queries = new QueryCache({ defaultLimit: options.defaultLimit, maxLimit: options.maxLimit });
  const handler = (request: StoreRequest) => answer(request, options, storage, feed, queries);
  return Object.assign(handler, { ready, close });
}
