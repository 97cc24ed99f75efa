import type { QueryCache } from '../http/query-cache';
import { renderError } from '../http/render-error';
import { respond } from '../http/respond';
import type { StoreRequest, StoreResponse } from '../model/http';
import type { ResolvedStoreOptions } from '../model/options';
import type { PluginAnswer, PluginInstance } from '../model/plugin';
import type { StorageHandle } from '../storage/start-storage';

/** Whether `path` lies under `prefix` (`/auth`, `/auth/...`; the leading slash optional). */
function isUnder(path: string, prefix: string): boolean {
  const bare = prefix.replace(/^\/+|\/+$/g, '');
  const rest = path.replace(/^\/+/, '');
  return rest === bare || rest.startsWith(`${bare}/`);
}

/** The active plugin whose routes `path` lies under, if any (checked before resource routes). */
export function pluginFor(path: string, options: ResolvedStoreOptions): PluginInstance | undefined {
  return options.plugins.find(({ instance }) => isUnder(path, instance.routePrefix))?.instance;
}

/** Serializes a plugin's answer: JSON through `respond`, or an HTML page. */
function serialize(answer: PluginAnswer): StoreResponse {
  if (answer.html === undefined) return respond(answer);
  const headers: Record<string, string> = {
    'content-type': 'text/html; charset=utf-8',
    ...answer.headers,
    'content-length': String(Buffer.byteLength(answer.html)),
  };
  return { status: answer.status, headers, body: answer.html };
}

/**
 * Answers a request under a plugin's `routePrefix`: `null` when no route of the plugin matches
 * (the path is then not the store's). Errors render as problem JSON; every answer carries the
 * plugin's `answerHeaders`.
 */
export async function answerPlugin(
  request: StoreRequest,
  instance: PluginInstance,
  options: ResolvedStoreOptions,
  storage: StorageHandle,
  queries: QueryCache,
): Promise<StoreResponse | null> {
  let response: StoreResponse | null;
  try {
    const { flags } = queries.of(request);
    const { plugins } = await storage.current();
    const runtime = plugins.find((started) => started.instance === instance)?.runtime;
    if (runtime === undefined) throw new Error('a configured plugin was not started');
    const answer = await runtime.answer({ request, method: request.method.toUpperCase(), flags });
    response = answer === null ? null : serialize(answer);
  } catch (error) {
    response = renderError(error, options.logger);
  }
  if (response !== null) Object.assign(response.headers, instance.answerHeaders);
  return response;
}
