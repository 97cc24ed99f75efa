import type { RouteResult } from '../model/context';
import type { StoreResponse } from '../model/http';

/** An answer's data as JSON text, with its length in UTF-8 bytes. */
export interface JsonText {
  readonly body: string;
  readonly bytes: number;
}

/** `data` as JSON text: Dates as ISO 8601 strings and ObjectIds as 24-hex strings (their `toJSON`). */
export function jsonText(data: unknown): JsonText {
  const body = JSON.stringify(data);
  return { body, bytes: Buffer.byteLength(body) };
}

/**
 * A route's answer as an HTTP response: its data as JSON in UTF-8, the `text` given (serialized
 * already, within a read's budget) or else {@link jsonText}'s. The handler drops the body of a
 * `HEAD` answer.
 */
export function respond(result: RouteResult, text?: JsonText): StoreResponse {
  if (result.data === undefined) return { status: result.status, headers: { ...result.headers } };
  return jsonResponse(result.status, text ?? jsonText(result.data), result.headers);
}

/** A response whose body is the JSON `text`, with `headers` besides its type and length. */
export function jsonResponse(
  status: number,
  text: JsonText,
  headers?: Record<string, string>,
): StoreResponse {
  return {
    status,
    headers: {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(text.bytes),
    },
    body: text.body,
  };
}
