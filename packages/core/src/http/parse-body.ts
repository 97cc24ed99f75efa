import type { Document } from '@store/common';
import { storeError } from '../model/error-codes';
import type { StoreRequest } from '../model/http';
import { sanitizeDocument } from './body-rules';
import { receiveBody } from './read-body';

/** `application/json` and every `application/<something>+json` type. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/;

function headerValue(request: StoreRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether a `content-type` header names JSON in UTF-8 (the only charset JSON allows). */
export function isJsonContentType(contentType: string): boolean {
  const [type = '', ...params] = contentType.split(';').map((part) => part.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  return JSON_MEDIA_TYPE.test(type) && (charset === undefined || charset === 'utf-8' || charset === 'utf8');
}

/** Whether the body is an RFC 7396 JSON Merge Patch (`application/merge-patch+json`). */
export function isMergePatch(request: StoreRequest): boolean {
  const contentType = headerValue(request, 'content-type');
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/merge-patch+json';
}

function unsupported(contentType: string | undefined) {
  const got = contentType === undefined ? 'no content-type' : `content-type ${JSON.stringify(contentType)}`;
  return storeError('unsupported_media_type', `The request body must be application/json; got ${got}.`);
}

function required() {
  return storeError('invalid_body', 'The request body must be a JSON object; it is empty.');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw storeError('invalid_body', 'The request body is not valid JSON.');
  }
}

/** The JSON value a request carries: 415 for a non-JSON `content-type`, 413 past `limit` bytes, 400 for an empty body or malformed JSON. */
async function receiveJson(request: StoreRequest, limit: number): Promise<unknown> {
  const contentType = headerValue(request, 'content-type');
  if (contentType !== undefined && !isJsonContentType(contentType)) throw unsupported(contentType);
  const received = await receiveBody(request, limit);
  const empty = received.kind === 'text' ? received.text.trim() === '' : received.value === undefined;
  if (empty) throw required();
  if (contentType === undefined) throw unsupported(contentType);
  if (received.kind === 'text') return parseJson(received.text);
  if (Buffer.byteLength(JSON.stringify(received.value)) > limit) {
    throw storeError('payload_too_large', `The request body exceeds the limit of ${limit} bytes.`);
  }
  return received.value;
}

/**
 * The JSON object body of a request, as a prototype-free document with relaxed Extended
 * JSON applied: 415 for a non-JSON `content-type`, 413 past `limit` bytes, 400
 * `invalid_body` for an empty body, malformed JSON, a non-object or a key breaking a rule.
 * With `dottedKeys`, top-level keys may be dotted paths (PATCH).
 */
export async function parseJsonBody(
  request: StoreRequest,
  limit: number,
  dottedKeys = false,
): Promise<Document> {
  return sanitizeDocument(await receiveJson(request, limit), dottedKeys);
}

/**
 * The body of a `POST /<res>`: one document as {@link parseJsonBody} gives it, or a JSON array
 * (a bulk create), its items not yet checked.
 */
export async function parseCreateBody(request: StoreRequest, limit: number): Promise<Document | unknown[]> {
  const value = await receiveJson(request, limit);
  return Array.isArray(value) ? value : sanitizeDocument(value);
}
