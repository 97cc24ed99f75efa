import type { RouteResult } from '../model/context';
import type { StoreResponse } from '../model/http';
/**
 * Serializes a route's answer: JSON in UTF-8, Dates as ISO 8601 strings and ObjectIds as
 * 24-hex strings (their `toJSON`). The handler drops the body of a `HEAD` answer.
 */
export function respond(result: RouteResult): StoreResponse {
  if (result.data === undefined) return { status: result.status, headers: { ...result.headers } };
  const body = JSON.stringify(result.data);
  const headers = {
    ...result.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
  };
  return { status: result.status, headers, body };
}
