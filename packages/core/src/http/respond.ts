import type { RouteResult } from '../model/context';
import type { StoreResponse } from '../model/http';

/** An answer's data as JSON text, with its length in UTF-8 bytes (it may refuse it: a read past its budget). */
export type Serialize = (data: unknown) => { body: string; bytes: number };

const plainJson: Serialize = (data) => {
  const body = JSON.stringify(data);
  return { body, bytes: Buffer.byteLength(body) };
};

/**
 * Serializes a route's answer: JSON in UTF-8, Dates as ISO 8601 strings and ObjectIds as
 * 24-hex strings (their `toJSON`), through `serialize` when given. The handler drops the body of
 * a `HEAD` answer.
 */
export function respond(result: RouteResult, serialize: Serialize = plainJson): StoreResponse {
  if (result.data === undefined) return { status: result.status, headers: { ...result.headers } };
  const { body, bytes } = serialize(result.data);
  const headers = {
    ...result.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(bytes),
  };
  return { status: result.status, headers, body };
}
