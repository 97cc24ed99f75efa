/**
 * Entity tags on reads (contract section 11): a single document's answer carries a strong
 * `ETag`, a list's a weak one (`W/`), both a hash of the answer's bytes, so they change whenever
 * what the client would see changes. A `GET` whose `If-None-Match` names the current tag
 * answers 304 without a body.
 */
import { createHash } from 'node:crypto';
import type { StoreRequest, StoreResponse } from '../model/http';

function tagOf(body: string, weak: boolean): string {
  const hash = createHash('sha1').update(body).digest('base64url').slice(0, 27);
  return `${weak ? 'W/' : ''}"${hash}"`;
}

/** Whether an `If-None-Match` value names `tag` (weak comparison, as RFC 9110 asks for it). */
function matches(header: string | string[] | undefined, tag: string): boolean {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined) return false;
  const opaque = (each: string) => each.trim().replace(/^W\//, '');
  return value.split(',').some((each) => each.trim() === '*' || opaque(each) === opaque(tag));
}

/** `response` (a 200 to a `GET` or `HEAD`) with its `ETag`, or a 304 when the client has it. */
export function withEtag(request: StoreRequest, response: StoreResponse, weak: boolean): StoreResponse {
  if (response.status !== 200 || response.body === undefined) return response;
  const etag = tagOf(response.body, weak);
  if (matches(request.headers['if-none-match'], etag)) return { status: 304, headers: { etag } };
  return { ...response, headers: { ...response.headers, etag } };
}
