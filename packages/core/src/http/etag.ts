/**
 * Entity tags, derived from the answer alone. An answer about one document (a `GET`, and the
 * answer of the write that made it) carries a strong `ETag`, `"<hash of the answer's bytes>"`; a
 * list's is weak (`W/"<hash>"`). A tag is a function of what the reader receives and of nothing
 * else: it changes when the answer does (a write the reader can see, `$select`, hidden fields,
 * `afterRead`), and it stays when a write leaves the answer as it was (another document, another
 * user's, a hidden field): it carries no counter or revision, so it tells nobody how many writes
 * happened. `If-Match` compares it with the tag of the document's current answer
 * (`write/conditional.ts`). A `GET` whose `If-None-Match` names the current tag answers 304
 * without a body.
 */
import { hash } from 'node:crypto';
import type { StoreRequest, StoreResponse } from '../model/http';

/** The hash of an answer's bytes: what a tag is made of. */
function answerDigest(body: string): string {
  return hash('sha1', body, 'base64url');
}

/** The strong tag of an answer about one document whose body is `body`. */
export function strongTag(body: string): string {
  return `"${answerDigest(body)}"`;
}

/** The entity tags a conditional header (`If-None-Match`, `If-Match`) lists, or `undefined` without it. */
export function listedTags(header: string | string[] | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  return value.split(',').map((tag) => tag.trim());
}

/** Whether an `If-None-Match` value names `tag` (weak comparison, as RFC 9110 asks for it). */
function matches(header: string | string[] | undefined, tag: string): boolean {
  const opaque = (each: string) => each.replace(/^W\//, '');
  return listedTags(header)?.some((each) => each === '*' || opaque(each) === opaque(tag)) ?? false;
}

/**
 * `response` with its `ETag`: strong when it shows one document (`strong`), weak for a `GET` of
 * anything else (a write answering something else gets none); a `GET` (or `HEAD`) whose
 * `If-None-Match` names it answers 304.
 */
export function withEtag(request: StoreRequest, response: StoreResponse, strong = false): StoreResponse {
  if ((response.status !== 200 && response.status !== 201) || response.body === undefined) return response;
  const { method } = request;
  const read = method === 'GET' || method === 'HEAD';
  if (!read && !strong) return response;
  return tagged(request, response, strong ? strongTag(response.body) : `W/"${answerDigest(response.body)}"`);
}

/**
 * `response` (a 200 or 201 with a body) carrying `etag`, the tag {@link withEtag} gives it: a
 * `GET` (or `HEAD`) whose `If-None-Match` names it answers 304.
 */
export function tagged(request: StoreRequest, response: StoreResponse, etag: string): StoreResponse {
  const { method } = request;
  const read = method === 'GET' || method === 'HEAD';
  if (read && matches(request.headers['if-none-match'], etag)) return { status: 304, headers: { etag } };
  // The answer's headers are its own (built by `respond`): added to, not copied per request.
  response.headers.etag = etag;
  return response;
}
