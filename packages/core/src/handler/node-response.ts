/**
 * Writes a store answer on a Node `ServerResponse` (Express, the `store` command's server): the
 * body at once, or a stream chunk by chunk, waiting for `drain` when the socket is full and
 * cancelling the stream when the client goes away. The store's own event streams (an answer
 * carrying {@link EVENT_SOURCE}) are written directly from their queue ({@link EventStream.pushTo}).
 */
import type { ServerResponse } from 'node:http';
import type { StoreResponse } from '../model/http';
import { EVENT_SOURCE, type EventStream } from '../realtime/event-stream';

/** Resolves when `res` drained, or when it closed (then nothing more is written). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function pipeStream(stream: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  res.on('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drained(res);
    }
  } finally {
    res.off('close', cancel);
    if (!res.destroyed) res.end();
  }
}

/** Writes an event stream's events to `res` as they come (no promise per event), pausing while `res` is full. */
function pushEvents(events: EventStream, res: ServerResponse): void {
  const sink = events.pushTo({
    write: (bytes) => res.destroyed || res.write(bytes),
    end: () => {
      if (!res.destroyed) res.end();
    },
  });
  res.on('drain', sink.drained);
  res.on('close', sink.cancel);
}

/** Writes `response` in one `writeHead` (headers set earlier with `setHeader` still merge). */
export function writeNodeResponse(res: ServerResponse, response: StoreResponse): void {
  res.writeHead(response.status, response.headers);
  const events = (response as { [EVENT_SOURCE]?: EventStream })[EVENT_SOURCE];
  if (events !== undefined) {
    res.flushHeaders();
    pushEvents(events, res);
    return;
  }
  if (response.stream === undefined) {
    res.end(response.body);
    return;
  }
  res.flushHeaders();
  pipeStream(response.stream, res).catch(() => res.destroy());
}
