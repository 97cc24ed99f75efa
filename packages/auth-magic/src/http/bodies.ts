import { type Document, isPlainObject } from '@store/common';
import { parseJsonBody, receiveBody } from '@store/core';
import { AuthError } from '../errors';
import type { AuthRouteContext } from './context';

/** Largest body an auth route reads: an address, a code, a flag. */
const AUTH_BODY_LIMIT = 16 * 1024;

function limit(ctx: AuthRouteContext): number {
  return Math.min(ctx.bodyLimit, AUTH_BODY_LIMIT);
}

/**
 * The JSON object body of an auth request (`{ email }`, `{ email, code }`, `{ email, poll }`),
 * prototype-free, with the resource routes' rules: 415, 413, 400 `invalid_body`.
 */
export function readJsonBody(ctx: AuthRouteContext): Promise<Document> {
  return parseJsonBody(ctx.request, limit(ctx));
}

/** Media types the approval POST accepts: the confirmation page's form post, or JSON. */
const APPROVAL_TYPES =
  /^(application\/x-www-form-urlencoded|multipart\/form-data|application\/(?:[\w.-]+\+)?json)$/;

function contentType(ctx: AuthRouteContext): string | undefined {
  const value = ctx.request.headers['content-type'];
  const raw = Array.isArray(value) ? value[0] : value;
  return raw?.split(';')[0]?.trim().toLowerCase();
}

/**
 * Reads (and ignores) the body of the approval `POST /auth/magic-link/:token`: empty, or the
 * form post the confirmation page's button sends, or JSON. Another media type with a body is a
 * 415; past the limit a 413. The JSON-only rule of resource routes does not apply here.
 */
export async function readApprovalBody(ctx: AuthRouteContext): Promise<void> {
  const type = contentType(ctx);
  const received = await receiveBody(ctx.request, limit(ctx));
  const empty = received.kind === 'text' ? received.text.trim() === '' : received.value === undefined;
  if (type === undefined || APPROVAL_TYPES.test(type) || empty) return;
  throw new AuthError(
    'unsupported_media_type',
    `The approval takes an empty body or a form post; got content-type ${JSON.stringify(type)}.`,
  );
}

/**
 * One field of a form post (`application/x-www-form-urlencoded`, or a form the host framework
 * already parsed), as the code link's confirmation page sends it: `null` when the body is empty
 * or lacks it. Another media type with a body is a 415; past the limit a 413.
 */
export async function readFormField(ctx: AuthRouteContext, name: string): Promise<string | null> {
  const type = contentType(ctx);
  const received = await receiveBody(ctx.request, limit(ctx));
  if (received.kind === 'parsed') {
    const value = isPlainObject(received.value) ? received.value[name] : undefined;
    return typeof value === 'string' ? value : null;
  }
  if (type === 'application/x-www-form-urlencoded') return new URLSearchParams(received.text).get(name);
  if (received.text.trim() === '') return null;
  throw new AuthError(
    'unsupported_media_type',
    `This takes the form post of the confirmation page; got content-type ${JSON.stringify(type ?? null)}.`,
  );
}
