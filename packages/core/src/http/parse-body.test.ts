import { isStoreError } from '@store/common';
import { describe, expect, it } from 'vitest';
import type { StoreRequest, StoreRequestBody } from '../model/http';
import { isJsonContentType, parseJsonBody } from './parse-body';

function request(body: StoreRequestBody | undefined, headers: Record<string, string> = {}): StoreRequest {
  return {
    method: 'POST',
    path: '/posts',
    rawQuery: '',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  };
}

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

async function failure(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await promise;
  } catch (error) {
    if (isStoreError(error)) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON; Charset="UTF-8"', true],
    ['application/merge-patch+json', true],
    ['application/vnd.api+json; charset=utf8', true],
    ['application/json; charset=latin1', false],
    ['text/plain', false],
    ['application/x-www-form-urlencoded', false],
    ['application/jsonp', false],
    ['text/json', false],
  ])('%s -> %s', (contentType, expected) => {
    expect(isJsonContentType(contentType)).toBe(expected);
  });
});

describe('parseJsonBody', () => {
  it.each([
    ['a string', '{"a":1}'],
    ['bytes', new TextEncoder().encode('{"a":1}')],
    ['a stream in several chunks', chunks('{"a"', ':1}')],
    ['a value a host parser produced', { parsed: { a: 1 } }],
    ['raw text a host parser left as a string', { parsed: '{"a":1}' }],
  ])('reads a body given as %s', async (_, body) => {
    expect({ ...(await parseJsonBody(request(body), 1024)) }).toEqual({ a: 1 });
  });

  it('applies the key rules to a body a host parser produced', async () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true}}');
    expect(await failure(parseJsonBody(request({ parsed }), 1024))).toEqual({
      status: 400,
      code: 'invalid_body',
    });
  });

  it.each([
    ['a text/plain body', '{"a":1}', { 'content-type': 'text/plain' }],
    [
      'a form body a host parser already parsed',
      { parsed: { a: '1' } },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ],
    ['a body without content-type', '{"a":1}', { 'content-type': '' }],
  ])('answers 415 unsupported_media_type for %s', async (_, body, headers) => {
    const req = request(body as StoreRequestBody, headers);
    if (headers['content-type'] === '') delete (req.headers as Record<string, string>)['content-type'];
    expect(await failure(parseJsonBody(req, 1024))).toEqual({ status: 415, code: 'unsupported_media_type' });
  });

  it.each([
    ['a declared content-length over the limit', '{}', { 'content-length': '2048' }],
    ['a string over the limit', `{"a":"${'x'.repeat(2000)}"}`, {}],
    ['a stream over the limit', chunks('{"a":"', 'x'.repeat(600), 'x'.repeat(600), '"}'), {}],
    ['a parsed value over the limit', { parsed: { a: 'x'.repeat(2000) } }, {}],
  ])('answers 413 payload_too_large for %s', async (_, body, headers) => {
    expect(await failure(parseJsonBody(request(body as StoreRequestBody, headers), 1024))).toEqual({
      status: 413,
      code: 'payload_too_large',
    });
  });

  it.each([
    ['an empty body', ''],
    ['no body at all', undefined],
    ['malformed JSON', '{"a":'],
    ['a JSON array', '[1]'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0x7d])],
  ])('answers 400 invalid_body for %s', async (_, body) => {
    expect(await failure(parseJsonBody(request(body), 1024))).toEqual({ status: 400, code: 'invalid_body' });
  });

  it('answers 400 invalid_body when the stream fails', async () => {
    async function* broken(): AsyncIterable<Uint8Array> {
      yield new TextEncoder().encode('{');
      throw new Error('aborted');
    }
    expect(await failure(parseJsonBody(request(broken()), 1024))).toEqual({
      status: 400,
      code: 'invalid_body',
    });
  });
});
