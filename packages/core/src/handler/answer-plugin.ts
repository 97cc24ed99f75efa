import { withEtag } from '../http/etag';
import type { QueryCache } from '../http/query-cache';
import { renderError } from '../http/render-error';
import { respond } from '../http/respond';
import type { StoreRequest, StoreResponse } from '../model/http';
import type { ResolvedStoreOptions } from '../model/options';
import { bareRoutePath, type PluginAnswer, type PluginInstance } from '../model/plugin';
import type { StorageHandle } from '../storage/start-storage';

const SLASH = 0x2f;
/** Route prefixes without their leading and trailing slashes, by prefix: a plugin's few, asked on every request. */
const barePrefixes = new Map<string, string>();

/** Whether `path` lies under `prefix` (`/auth`, `/auth/...`; the leading slash optional). */
export function isUnder(path: string, prefix: string): boolean {
  let bare = barePrefixes.get(prefix);
  if (bare === undefined) {
    bare = bareRoutePath(prefix);
    barePrefixes.set(prefix, bare);
  }
  const rest =
    path.charCodeAt(1) === SLASH || path.charCodeAt(0) !== SLASH ? path.replace(/^\/+/, '') : path.slice(1);
  return rest.startsWith(bare) && (rest.length === bare.length || rest.charCodeAt(bare.length) === SLASH);
}

/** The active plugin whose routes `path` lies at or under, if any (checked before resource routes). */
export function pluginFor(path: string, options: ResolvedStoreOptions): PluginInstance | undefined {
  return options.plugins.find(({ instance }) => instance.routePaths.some((prefix) => isUnder(path, prefix)))
    ?.instance;
}

/** A body sent as it is, with its length. */
function raw(answer: PluginAnswer, body: string, type: string | undefined): StoreResponse {
  const headers: Record<string, string> = {
    ...(type === undefined ? {} : { 'content-type': type }),
    ...answer.headers,
    'content-length': String(Buffer.byteLength(body)),
  };
  return { status: answer.status, headers, body };
}

/** Serializes a plugin's answer: JSON through `respond`, an HTML page, or a body as it is. */
function serialize(request: StoreRequest, answer: PluginAnswer): StoreResponse {
  const response =
    answer.html !== undefined
      ? raw(answer, answer.html, 'text/html; charset=utf-8')
      : answer.body !== undefined
        ? raw(answer, answer.body, undefined)
        : respond(answer);
  return answer.etag === true ? withEtag(request, response, undefined) : response;
}

/**
 * Answers a request under one of a plugin's `routePaths`: `null` when no route of the plugin matches
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
    const answer = await runtime.answer({ request, method: request.method, flags });
    response = answer === null ? null : serialize(request, answer);
  } catch (error) {
    response = renderError(error, options.logger, options.dialects.foreign);
  }
  if (response !== null) Object.assign(response.headers, instance.answerHeaders);
  return response;
}
