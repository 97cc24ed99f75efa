import { createContext } from './context';
import { type ResolvedStoreOptions, resolveStoreOptions, type StoreConfig } from './options';
import { renderError } from './render-error';
import { respond } from './respond';
import { routeFor } from './route-table';
import { matchRoute } from './router';
import { type StartedStorage, startStorage } from './start-storage';
import type { StoreHandler, StoreRequest, StoreResponse } from './types';

async function answer(
  request: StoreRequest,
  options: ResolvedStoreOptions,
  storage: Promise<StartedStorage>,
): Promise<StoreResponse | null> {
  const match = matchRoute(request.path, options);
  if (!match) return null;
  let response: StoreResponse;
  try {
    const route = routeFor(match.kind, request.method);
    const { db } = await storage;
    const ctx = createContext(request, options, db, match);
    response = respond(await route(ctx));
  } catch (error) {
    response = renderError(error, options.logger);
  }
  // HEAD answers carry the headers of the GET, errors included, and never a body.
  return request.method.toUpperCase() === 'HEAD'
    ? { status: response.status, headers: response.headers }
    : response;
}

/**
 * Creates the framework-agnostic store: resolves `config` (throwing a `StoreError` with code
 * `invalid_config` that names a bad option), starts opening storage, and returns the
 * handler adapters call. It answers `null` for paths that are not resource routes.
 */
export function createStoreHandler(config: StoreConfig = {}): StoreHandler {
  const options = resolveStoreOptions(config);
  const storage = startStorage(options);
  storage.catch((error: unknown) => {
    options.logger.error('[@store/core] storage could not be opened', error);
  });
  const ready = storage.then(() => undefined);
  // `ready` is for callers to await; a caller that does not must not crash the process.
  ready.catch(() => undefined);
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= storage.then(
      (started) => started.close(),
      () => undefined,
    );
    return closed;
  };
  const handler = (request: StoreRequest) => answer(request, options, storage);
  return Object.assign(handler, { ready, close });
}
