/**
 * What generated clients read from the description: the id named as `wireId` says, documents of
 * undeclared resources allowing any field, `PATCH` bodies typed as the document's fields, and
 * `DELETE` answering the document when a foreign dialect is on.
 */
import { compileErrors, validate } from '@readme/openapi-parser';
import { createStoreHandler, type StoreConfig, type StoreHandler } from '@store/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openapi } from './plugin';

// biome-ignore lint/suspicious/noExplicitAny: the tests read deep into parsed JSON
type Json = Record<string, any>;

const handlers: StoreHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handle) => handle.close()));
});

async function described(config: StoreConfig): Promise<Json> {
  const handle = createStoreHandler({ ...config, plugins: [openapi()] });
  handlers.push(handle);
  const answer = await handle({ method: 'GET', path: '/openapi.json', rawQuery: '', headers: {} });
  return JSON.parse(answer?.body ?? '');
}

const posts = {
  schema: {
    type: 'object',
    properties: { title: { type: 'string' }, views: { type: 'integer' } },
    required: ['title'],
    additionalProperties: false,
  },
} as const;

describe('the description generated clients read', () => {
  it('allows any field in documents of undeclared resources, and types PATCH bodies as fields', async () => {
    const document = await described({ resources: { posts } });
    const { schemas } = document.components;
    expect(schemas.Document).toMatchObject({ required: ['_id'], additionalProperties: true });
    expect(schemas.DocumentInput.additionalProperties).toBe(true);
    expect(schemas.DottedPatch.additionalProperties).toBe(true);
    expect(schemas['posts.document']).toMatchObject({
      required: ['_id', 'title'],
      additionalProperties: true,
    });
    expect(schemas['posts.patch']).toEqual({
      type: 'object',
      minProperties: 1,
      description: expect.any(String),
      properties: { title: { type: 'string' }, views: { type: 'integer' } },
      additionalProperties: true,
    });
    const patch = document.paths['/posts/{id}'].patch.requestBody.content['application/json'].schema;
    expect(patch).toEqual({ $ref: '#/components/schemas/posts.patch' });
    expect(document.paths['/posts/{id}'].delete.responses['204']).toBeDefined();
    const result = await validate(document as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : compileErrors(result)).toEqual([]);
  });

  it("names the id `id` everywhere under wireId: 'id', and describes DELETE's 200 under dialects", async () => {
    const document = await described({ resources: { posts }, wireId: 'id', dialects: true });
    const { schemas } = document.components;
    expect(schemas.Document).toMatchObject({
      required: ['id'],
      properties: { id: { $ref: '#/components/schemas/Id' } },
    });
    expect(schemas.DocumentInput.properties).toEqual({ id: { $ref: '#/components/schemas/IdInput' } });
    expect(schemas['posts.document'].required).toEqual(['id', 'title']);
    expect(Object.keys(schemas['posts.input'].properties)).toEqual(['id', 'title', 'views']);
    expect(JSON.stringify(schemas)).not.toContain('"_id"');
    const removed = document.paths['/posts/{id}'].delete.responses;
    expect(removed['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/posts.document',
    });
    expect(removed['204']).toBeUndefined();
    const result = await validate(document as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : compileErrors(result)).toEqual([]);
  });
});
