import { storeError } from '../model/error-codes';
import type { ParsedBody, StoreRequest, StoreRequestBody } from '../model/http';

/** A body as it arrived: raw text, or a value a host body parser produced. */
export type ReceivedBody = { kind: 'text'; text: string } | { kind: 'parsed'; value: unknown };

/** How much past `bodyLimit` is read and thrown away before giving up on the connection. */
const DRAIN_FACTOR = 16;

function tooLarge(limit: number) {
  return storeError('payload_too_large', `The request body exceeds the limit of ${limit} bytes.`);
}

/** Whether a body came from a host body parser. */
function isParsedBody(body: StoreRequestBody | undefined): body is ParsedBody {
  return typeof body === 'object' && body !== null && !(body instanceof Uint8Array) && 'parsed' in body;
}

function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw storeError('invalid_body', 'The request body is not valid UTF-8.');
  }
}

function toBytes(chunk: Uint8Array | string): Uint8Array {
  return typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

/**
 * Reads a stream up to `limit` bytes. Past the limit, the rest is read and dropped (so the
 * answer reaches the client on a healthy connection) up to a bound, then reading stops.
 */
async function readStream(stream: AsyncIterable<Uint8Array | string>, limit: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const bytes = toBytes(chunk);
      size += bytes.byteLength;
      if (size > limit * DRAIN_FACTOR + 1024 ** 2) break;
      if (size <= limit) chunks.push(bytes);
    }
  } catch (cause) {
    throw storeError('invalid_body', 'The request body could not be read.', { cause });
  }
  if (size > limit) throw tooLarge(limit);
  return decode(Buffer.concat(chunks));
}

async function readRaw(
  body: string | Uint8Array | AsyncIterable<Uint8Array>,
  limit: number,
): Promise<string> {
  if (typeof body === 'string') {
    if (Buffer.byteLength(body) > limit) throw tooLarge(limit);
    return body;
  }
  if (body instanceof Uint8Array) {
    if (body.byteLength > limit) throw tooLarge(limit);
    return decode(body);
  }
  return readStream(body, limit);
}

/**
 * The request body, read at most up to `limit` bytes: 413 `payload_too_large` when a
 * declared `content-length` or the bytes read exceed it. A body a host parser left as a
 * string or bytes counts as raw text.
 */
export async function receiveBody(request: StoreRequest, limit: number): Promise<ReceivedBody> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const body = request.body;
  if (body === undefined) return { kind: 'text', text: '' };
  if (isParsedBody(body)) {
    const { parsed } = body;
    if (typeof parsed === 'string' || parsed instanceof Uint8Array) {
      return { kind: 'text', text: await readRaw(parsed, limit) };
    }
    return { kind: 'parsed', value: parsed };
  }
  return { kind: 'text', text: await readRaw(body, limit) };
}
