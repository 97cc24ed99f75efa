/**
 * `GET /<res>?<filter>` with `Accept: text/event-stream`: the change events of the documents the
 * same request would list, from the access rule granted to the request.
 */

import { requestFilter } from '../access/filters';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';
import type { StoreRequest, StoreResponse } from '../model/http';
import type { RouteMatch } from '../model/resource';
import type { ChangeFeed } from './change-feed';
import { EVENT_SOURCE, type EventStream } from './event-stream';
import { loadMatching, Subscriber } from './subscriber';

const EVENT_STREAM = 'text/event-stream';

/** Whether the request asks for the change events of a collection (a plain `GET /<res>` otherwise). */
export function wantsEvents(request: StoreRequest, match: RouteMatch): boolean {
  if (match.kind !== 'collection' || request.method !== 'GET') return false;
  const accept = request.headers.accept;
  return (Array.isArray(accept) ? accept.join(',') : (accept ?? '')).toLowerCase().includes(EVENT_STREAM);
}

/** The `Last-Event-ID` a reconnecting client sends (`EventSource` does on its own). */
function lastEventId(request: StoreRequest): string | undefined {
  const value = request.headers['last-event-id'];
  const id = Array.isArray(value) ? value[0] : value;
  return id === undefined || id.trim() === '' ? undefined : id.trim();
}

/**
 * The stream of `ctx`'s request: the query's filter and `$select` apply (page, sort and count
 * parameters do not: every matching change is sent); `$populate`, `$fill` and `$search` are a
 * 400 `invalid_query`, as is a filter the store cannot test on a document (`$near`).
 */
export async function openEventStream(ctx: RequestContext, feed: ChangeFeed): Promise<StoreResponse> {
  const { populate, fill, search } = ctx.query;
  const refused = [
    ...(populate.length > 0 ? ['$populate'] : []),
    ...(fill.length > 0 ? ['$fill'] : []),
    ...(search === undefined ? [] : ['$search']),
  ];
  if (refused.length > 0) {
    throw storeError('invalid_query', `${refused.join(', ')}: not available on an event stream.`);
  }
  const filter = requestFilter(ctx);
  const matching = await loadMatching();
  let subscriber: Subscriber;
  try {
    subscriber = new Subscriber(ctx, filter, matching);
  } catch (cause) {
    const reason = cause instanceof Error ? ` (${cause.message})` : '';
    throw storeError('invalid_query', `This filter cannot be tested on an event stream${reason}.`, { cause });
  }
  const events = feed.subscribe(subscriber, lastEventId(ctx.request));
  const headers = {
    'content-type': `${EVENT_STREAM}; charset=utf-8`,
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  };
  // The web stream is made only when an adapter reads it; a Node response takes the events directly.
  const answer: StoreResponse & { readonly [EVENT_SOURCE]: EventStream } = {
    status: 200,
    headers,
    [EVENT_SOURCE]: events,
    get stream() {
      return events.stream;
    },
  };
  return answer;
}
