/**
 * Writes a store answer on a Node `ServerResponse` (Express, the `store` command's server): the
 * body at once, or a stream chunk by chunk, waiting for `drain` when the socket is full and
 * cancelling the stream when the client goes away.
 */
import type { ServerResponse } from 'node:http';
import type { StoreResponse } from '../model/http';

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

/** Writes `response` in one `writeHead` (headers set earlier with `setHeader` still merge). */
export function writeNodeResponse(res: ServerResponse, response: StoreResponse): void {
  res.writeHead(response.status, response.headers);
  if (response.stream === undefined) {
    res.end(response.body);
    return;
  }
  res.flushHeaders();
  pipeStream(response.stream, res).catch(() => res.destroy());
}
