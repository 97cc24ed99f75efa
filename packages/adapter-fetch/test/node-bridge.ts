/**
 * A tiny bridge from Node's `http` to a fetch handler, as the tests' host: IncomingMessage ->
 * Request (every header line, the body as a stream), Response -> ServerResponse (every
 * header, each `Set-Cookie` on its own line).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

const WITHOUT_BODY = new Set(['GET', 'HEAD']);

/** The request as a fetch `Request`; `buffered` reads the body whole first, as some hosts do. */
export async function toRequest(req: IncomingMessage, buffered = false): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '');
  }
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  if (WITHOUT_BODY.has(method)) return new Request(url, { method, headers });
  const body = buffered
    ? new Uint8Array(await new Response(Readable.toWeb(req) as ReadableStream).arrayBuffer())
    : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
  return new Request(url, { method, headers, body, duplex: 'half' } as RequestInit);
}

/**
 * Writes `response` to `res`, its body streamed (none for `HEAD`) as hosts do: waiting for
 * `drain` when the socket is full, cancelling the body when the client goes away.
 */
export async function writeResponse(response: Response, res: ServerResponse, head: boolean): Promise<void> {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (head || response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done || res.destroyed) break;
    if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
  }
  res.end();
}
