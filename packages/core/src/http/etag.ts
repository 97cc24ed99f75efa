/**
 * Entity tags. An answer about one document (a `GET`, and the answer of
 * the write that made it) carries a strong `ETag`, `"<revision>:<hash of the answer>"`: it
 * changes with every write to the document (a new revision, `write/revision.ts`) and with what
 * the client sees of it (`$select`, hidden fields, `afterRead`); `If-Match` on a write compares
 * the revision part (`write/conditional.ts`). A list's `ETag` is weak (`W/`), a hash of its bytes.
 * A `GET` whose `If-None-Match` names the current tag answers 304 without a body.
 */
import { hash } from 'node:crypto';
import type { StoreRequest, StoreResponse } from '../model/http';

/** The hash part of a tag: of the answer's bytes. */
export function answerDigest(body: string): string {
  return hash('sha1', body, 'base64url');
}

function tagOf(body: string, revision: string | undefined): string {
  const digest = answerDigest(body);
  return revision === undefined ? `W/"${digest}"` : `"${revision}:${digest}"`;
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
 * `response` with its `ETag`: strong when it shows the document at `revision`, weak for a
 * `GET` of anything else; a `GET` (or `HEAD`) whose `If-None-Match` names it answers 304.
 */
export function withEtag(
  request: StoreRequest,
  response: StoreResponse,
  revision: string | undefined,
): StoreResponse {
  if ((response.status !== 200 && response.status !== 201) || response.body === undefined) return response;
  const method = request.method.toUpperCase();
  const read = method === 'GET' || method === 'HEAD';
  if (!read && revision === undefined) return response;
  const etag = tagOf(response.body, revision);
  if (read && matches(request.headers['if-none-match'], etag)) return { status: 304, headers: { etag } };
  // The answer's headers are its own (built by `respond`): added to, not copied per request.
  response.headers.etag = etag;
  return response;
}
