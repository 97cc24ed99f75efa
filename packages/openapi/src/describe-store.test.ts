import { compileErrors, validate } from '@readme/openapi-parser';
import { createStoreHandler, type ResourceConfig, type StoreConfig, type StoreHandler } from '@store/core';
import { QUERY_SYNTAX } from '@store/query';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenApiOptions } from './options';
import { openapi } from './plugin';
import { queryParameterTable } from './query-parameters';

/** The parsed document, walked without checks: a missing member fails the assertion that reads it. */
// biome-ignore lint/suspicious/noExplicitAny: the tests read deep into parsed JSON
type Json = Record<string, any>;

const handlers: StoreHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handle) => handle.close()));
});

/** The document `GET /openapi.json` answers for a store mounted at `/api`, with `openapi(info)` added to its plugins. */
async function described(config: StoreConfig, info?: OpenApiOptions): Promise<Json> {
  const handle = createStoreHandler({ ...config, plugins: [...(config.plugins ?? []), openapi(info)] });
  handlers.push(handle);
  const answer = await handle({
    method: 'GET',
    path: '/openapi.json',
    rawQuery: '',
    headers: {},
    mountPath: '/api',
  });
  expect(answer).toMatchObject({
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
  return JSON.parse(answer?.body ?? '');
}

const notes = {
  access: 'owner',
  hidden: ['secret', 'meta.score'],
  timestamps: true,
  protected: ['role'],
  schema: {
    type: 'object',
    definitions: { tag: { type: 'string', minLength: 1 } },
    properties: {
      title: { type: 'string', minLength: 1 },
      secret: { type: 'string' },
      role: { type: 'string' },
      tags: { type: 'array', items: { $ref: '#/definitions/tag' } },
      meta: { type: 'object', properties: { score: { type: 'number' }, views: { type: 'integer' } } },
    },
    required: ['title', 'secret'],
    additionalProperties: false,
  },
} as const satisfies ResourceConfig;

const CONFIGS: [string, StoreConfig, OpenApiOptions?][] = [
  ['no resources', {}],
  [
    'declared resources with schemas and owner access',
    { resources: { notes, posts: { access: { read: 'public', create: 'authenticated' } } } },
  ],
  [
    'restrict, a function rule, a "none" resource',
    { restrict: true, resources: { notes, tasks: { access: () => true }, audit: { access: 'none' } } },
  ],
  [
    'title, version, description and baseUrl',
    { baseUrl: 'https://notes.test/api' },
    { title: 'Notes', version: '2.1.0', description: 'Our notes.' },
  ],
  ['realtime off', { realtime: false, resources: { notes } }],
];

describe('GET /openapi.json', () => {
  it.each(CONFIGS)('is a valid OpenAPI 3.1 document: %s', async (_name, config, info) => {
    const document = await described(config, info);
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(document as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : compileErrors(result)).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('names the API from the option and the server from the mount path or baseUrl', async () => {
    expect(await described({})).toMatchObject({
      info: { title: '@store API', version: '1.0.0' },
      servers: [{ url: '/api' }],
    });
    const info = { title: 'Notes', version: '2.1.0' };
    expect(await described({ baseUrl: 'https://notes.test/api' }, info)).toMatchObject({
      info: { title: 'Notes', version: '2.1.0' },
      servers: [{ url: 'https://notes.test/api' }],
    });
  });

  it("shows a declared resource's schema, without its hidden fields in answers", async () => {
    const { components, paths } = await described({ resources: { notes } });
    const input = components.schemas['notes.input'];
    const document = components.schemas['notes.document'];
    expect(input.properties.title).toEqual({ type: 'string', minLength: 1 });
    expect(input.properties.secret).toEqual({ type: 'string' });
    expect(input.properties.tags.items).toEqual({ $ref: '#/components/schemas/notes.input/definitions/tag' });
    expect(Object.keys(document.properties)).toEqual([
      '_id',
      'title',
      'role',
      'tags',
      'meta',
      'createdAt',
      'updatedAt',
    ]);
    expect(document.properties.meta.properties).toEqual({ views: { type: 'integer' } });
    expect(document.required).toEqual(['_id', 'title']);
    expect(document.properties.role.readOnly).toBe(true);
    const answered = paths['/notes/{id}'].get.responses['200'].content['application/json'].schema;
    expect(answered).toEqual({ $ref: '#/components/schemas/notes.document' });
    expect(paths['/notes'].post.requestBody.content['application/json'].schema.anyOf[0]).toEqual({
      $ref: '#/components/schemas/notes.input',
    });
  });

  it('lists every query parameter of the table on the list route', async () => {
    const { paths, components } = await described({ resources: { notes } });
    const listed = paths['/notes'].get.parameters.map((p: Json) =>
      p.$ref ? components.parameters[p.$ref.split('/').pop()].name : p.name,
    );
    const table = queryParameterTable({ defaultLimit: 10, maxLimit: 1000 });
    expect(listed).toEqual(expect.arrayContaining(table.map((row) => row.name)));
    expect(components.parameters['query.limit'].schema).toEqual({ type: 'integer', minimum: 1, default: 10 });
  });

  it('describes every error as problem JSON of the shared Problem schema', async () => {
    const { paths, components } = await described({ resources: { notes } });
    const operations = (Object.values(paths) as Json[]).flatMap((item) =>
      ['get', 'put', 'post', 'patch', 'delete'].flatMap((method) => item[method] ?? []),
    );
    const errors = operations.flatMap((operation: Json) =>
      Object.entries(operation.responses).filter(([status]) => status === 'default' || Number(status) >= 400),
    );
    expect(errors.length).toBeGreaterThan(operations.length);
    for (const [, response] of errors as [string, Json][]) {
      const resolved = response.$ref ? components.responses[response.$ref.split('/').pop()] : response;
      expect(resolved.content['application/problem+json'].schema).toEqual({
        $ref: '#/components/schemas/Problem',
      });
    }
    const known = components.schemas.Problem.properties.code.anyOf[0].enum;
    expect(known).toEqual(
      expect.arrayContaining(['invalid_query', 'unsafe_regex', 'invalid_relation', 'not_found']),
    );
    expect(known).not.toContain('invalid_config');
  });

  it('asks for a session where the access rule needs one, and leaves out what "none" refuses', async () => {
    const posts = { access: { read: 'public', create: 'authenticated', delete: () => true } } as const;
    const { paths } = await described({ resources: { notes, posts } });
    expect(paths['/notes'].get.security).toEqual([{ sessionToken: [] }]);
    expect(paths['/posts'].get.security).toBeUndefined();
    expect(paths['/posts'].post.security).toEqual([{ sessionToken: [] }]);
    expect(paths['/posts/{id}'].delete.security).toEqual([{}, { sessionToken: [] }]);
    expect(paths['/posts'].patch).toBeUndefined();
    expect(paths['/posts/{id}'].put).toBeUndefined();
  });

  it('leaves out a resource named docs: /docs is the reference page', async () => {
    const { paths } = await described({ resources: { notes, docs: {} } });
    expect(Object.keys(paths).filter((path) => path.startsWith('/docs'))).toEqual([]);
    expect(paths['/{resource}'].parameters[0].schema.not).toEqual({ enum: ['docs'] });
    expect(paths['/notes/{id}/{children}'].parameters[1].schema.not).toEqual({ enum: ['docs'] });
  });

  it("leaves out its own routes, and every plugin's first path segment from {resource}", async () => {
    const route = {
      collections: [],
      routePaths: ['/auth/session', '/hooks'],
      start: async () => ({ answer: async () => null }),
    };
    const other = { name: 'other', errorCodes: {}, setup: () => route };
    const { paths } = await described({ plugins: [other], resources: { auth: {}, notes } });
    expect(Object.keys(paths)).toEqual([
      '/notes',
      '/notes/{id}',
      '/notes/{id}/{children}',
      '/{resource}',
      '/{resource}/{id}',
      '/{resource}/{id}/{children}',
    ]);
    expect(paths['/{resource}'].parameters[0].schema).toEqual({
      type: 'string',
      pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$',
      not: { enum: ['auth', 'docs', 'hooks'] },
    });
  });

  it('names every operator, coercion, geo form and reserved parameter of the query language', async () => {
    const { components } = await described({ resources: { notes } });
    const filter = components.parameters['query.filter'].description;
    const words = (list: readonly string[], prefix = '') =>
      `\`${list.map((word) => prefix + word).join(' ')}\``;
    expect(filter).toContain(words(QUERY_SYNTAX.operators));
    expect(filter).toContain(words(QUERY_SYNTAX.coercions, ':'));
    expect(filter).toContain(words(QUERY_SYNTAX.geoForms));
    expect(components.parameters['query.query'].description).toContain(words(QUERY_SYNTAX.rawOperators));
    const names = Object.values(components.parameters as Json).map((parameter: Json) => parameter.name);
    expect(names).toEqual(expect.arrayContaining([...QUERY_SYNTAX.reserved]));
  });

  it('describes undeclared resources unless restrict', async () => {
    const open = await described({ resources: { notes } });
    expect(
      open.paths['/{resource}'].get.responses['200'].content['application/json'].schema.anyOf[0].items,
    ).toEqual({
      $ref: '#/components/schemas/Document',
    });
    const restricted = await described({ restrict: true, resources: { notes } });
    expect(Object.keys(restricted.paths)).toEqual(['/notes', '/notes/{id}', '/notes/{id}/{children}']);
    expect(restricted.paths['/notes/{id}/{children}'].parameters[1].schema).toEqual({
      type: 'string',
      enum: ['notes'],
    });
  });

  it('gives list answers their paging headers and change events, and creates their Location', async () => {
    const { paths } = await described({ resources: { notes } });
    const list = paths['/notes'].get.responses;
    expect(Object.keys(list['200'].headers)).toEqual(['ETag', 'X-Total-Count', 'Link']);
    expect(list['200'].content['text/event-stream'].schema.type).toBe('string');
    expect(list['304']).toEqual({ $ref: '#/components/responses/NotModified' });
    expect(Object.keys(paths['/notes'].post.responses['201'].headers)).toEqual(['Location', 'ETag']);
    expect(paths['/notes/{id}'].patch.requestBody.content).toHaveProperty('application/merge-patch+json');
    const quiet = await described({ realtime: false, resources: { notes } });
    expect(quiet.paths['/notes'].get.responses['200'].content).not.toHaveProperty('text/event-stream');
  });
});
