import type { Document } from '@store/common';
import { isStoreError } from '@store/common';
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { toProblem } from '../http/render-error';
import type { BodyFieldError } from '../model/resource';
import { compileBodySchema, MAX_BODY_ERRORS } from './body-schema';

const OPTION = 'resources.notes.schema';

const NOTE_SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1 },
    tags: { type: 'array', items: { type: 'string' } },
    address: {
      type: 'object',
      properties: { city: { type: 'string' }, zip: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
  required: ['title'],
  additionalProperties: false,
};

function failure(schema: unknown, document: Document) {
  const validate = compileBodySchema(schema, OPTION);
  try {
    validate(document);
  } catch (error) {
    if (!isStoreError(error)) throw error;
    const { problem } = toProblem(error);
    const errors = problem.errors as BodyFieldError[] | undefined;
    return { status: problem.status, code: problem.code, detail: problem.detail, errors };
  }
  throw new Error('expected the validator to throw');
}

function configError(schema: unknown): { code: string; detail: string } {
  try {
    compileBodySchema(schema, OPTION);
  } catch (error) {
    if (isStoreError(error)) return { code: error.code, detail: error.detail };
    throw error;
  }
  throw new Error('expected compileBodySchema to throw');
}

describe('compileBodySchema', () => {
  it('accepts a document that matches', () => {
    const validate = compileBodySchema(NOTE_SCHEMA, OPTION);
    expect(() => validate({ title: 'a', tags: ['x'], address: { city: 'Oslo' } })).not.toThrow();
  });

  it.each<[string, Document, BodyFieldError[]]>([
    ['a wrong type', { title: 5 }, [{ field: 'title', message: 'must be string' }]],
    [
      'an array element by index',
      { title: 'a', tags: ['x', 2] },
      [{ field: 'tags.1', message: 'must be string' }],
    ],
    [
      'a missing property by its own path',
      { title: 'a', address: {} },
      [{ field: 'address.city', message: "must have required property 'city'" }],
    ],
    [
      'an extra property by its own path',
      { title: 'a', address: { city: 'Oslo', planet: 'Earth' } },
      [{ field: 'address.planet', message: 'must NOT have additional properties' }],
    ],
    [
      'every failure, not just the first',
      { tags: 'x', extra: 1 },
      [
        { field: 'title', message: "must have required property 'title'" },
        { field: 'extra', message: 'must NOT have additional properties' },
        { field: 'tags', message: 'must be array' },
      ],
    ],
  ])('answers 400 invalid_body naming %s', (_name, document, errors) => {
    const answer = failure(NOTE_SCHEMA, document);
    expect(answer).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(answer.errors).toEqual(expect.arrayContaining(errors));
    expect(answer.errors).toHaveLength(errors.length);
  });

  it('names the first fields in the detail', () => {
    const { detail } = failure(NOTE_SCHEMA, { title: 5 });
    expect(detail).toBe('The body does not match the schema: "title" (must be string).');
    const many = failure(NOTE_SCHEMA, { title: 1, tags: [1, 2, 3, 4] }).detail;
    expect(many).toMatch(/^The body does not match the schema: "title" \(must be string\), .* and 2 more\.$/);
  });

  it('reports a failure of the body itself with an empty field', () => {
    const schema = { type: 'object', minProperties: 2 };
    expect(failure(schema, { a: 1 }).errors).toEqual([
      { field: '', message: 'must NOT have fewer than 2 properties' },
    ]);
  });

  it('names a refused property name by its path', () => {
    const schema = { type: 'object', propertyNames: { pattern: '^[a-z]+$' } };
    expect(failure(schema, { Bad: 1 }).errors).toEqual(
      expect.arrayContaining([{ field: 'Bad', message: 'must match pattern "^[a-z]+$"' }]),
    );
  });

  it('unescapes JSON Pointer segments into field names', () => {
    const schema = { type: 'object', additionalProperties: { type: 'string' } };
    expect(failure(schema, { 'a/b~c': 1 }).errors).toEqual([{ field: 'a/b~c', message: 'must be string' }]);
  });

  it(`lists at most ${MAX_BODY_ERRORS} errors for a hostile body, counting the rest in the detail`, () => {
    const schema = { type: 'object', properties: { l: { type: 'array', items: { type: 'string' } } } };
    const answer = failure(schema, { l: Array.from({ length: 500 }, (_, i) => i) });
    expect(answer.errors).toHaveLength(MAX_BODY_ERRORS);
    expect(answer.errors?.[0]).toEqual({ field: 'l.0', message: 'must be string' });
    expect(answer.detail).toContain('and 497 more');
  });

  it('cuts a hostile field name short', () => {
    const key = 'k'.repeat(5000);
    const answer = failure({ type: 'object', additionalProperties: false }, { [key]: 1 });
    const [entry] = answer.errors ?? [];
    expect(entry?.field).toBe(`${'k'.repeat(200)}...`);
    expect(answer.detail.length).toBeLessThan(200);
  });

  it('validates a Date as its ISO string and an ObjectId as its hex string', () => {
    const schema = {
      type: 'object',
      properties: {
        at: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T' },
        ref: { type: 'string', pattern: '^[0-9a-f]{24}$' },
      },
    };
    const validate = compileBodySchema(schema, OPTION);
    expect(() => validate({ at: new Date(0), ref: new ObjectId() })).not.toThrow();
    const asObjects = { type: 'object', properties: { at: { type: 'object' }, ref: { type: 'object' } } };
    expect(failure(asObjects, { at: new Date(0), ref: new ObjectId() }).errors).toEqual([
      { field: 'at', message: 'must be object' },
      { field: 'ref', message: 'must be object' },
    ]);
  });

  it('leaves the top-level _id out, so one strict schema fits POST and a merged PATCH', () => {
    const validate = compileBodySchema(NOTE_SCHEMA, OPTION);
    expect(() => validate({ _id: new ObjectId(), title: 'a' })).not.toThrow();
  });

  it.each([
    ['email', 'ann@example.com', 'ann@'],
    ['date-time', '2024-05-01T10:00:00Z', '2024-13-01'],
    ['date', '2024-05-01', 'yesterday'],
    ['uri', 'https://example.com/a?b=1', 'not a uri'],
    ['uuid', '6f1c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f', '6f1c1d2e'],
    ['ipv4', '192.0.2.1', '999.0.2.1'],
  ])('checks format %s (ajv-formats)', (format, good, bad) => {
    const schema = { type: 'object', properties: { v: { type: 'string', format } } };
    expect(() => compileBodySchema(schema, OPTION)({ v: good })).not.toThrow();
    expect(failure(schema, { v: bad })).toMatchObject({
      code: 'invalid_body',
      errors: [{ field: 'v', message: `must match format "${format}"` }],
    });
  });

  it('never changes the document', () => {
    const document = Object.freeze({ title: 5, at: new Date(0) });
    expect(failure(NOTE_SCHEMA, document).code).toBe('invalid_body');
    expect(document.at).toBeInstanceOf(Date);
  });

  it.each<[string, unknown, string]>([
    ['a non-object schema', true, 'root has type "object"'],
    ['a root without type', { properties: {} }, 'root has type "object"'],
    ['a root of another type', { type: 'array' }, 'root has type "object"'],
    ['an unknown keyword', { type: 'object', titel: 'x' }, 'unknown keyword: "titel"'],
    [
      'an unknown format, listing the known ones',
      { type: 'object', properties: { e: { type: 'string', format: 'e-mail' } } },
      'unknown format "e-mail"; the known formats are binary, byte, date, date-time',
    ],
    ['a keyword without its type', { type: 'object', properties: { n: { minimum: 1 } } }, 'strictTypes'],
    ['an invalid type name', { type: 'object', properties: { n: { type: 'numbr' } } }, 'schema is invalid'],
    [
      'an unresolvable $ref',
      { type: 'object', properties: { n: { $ref: '#/definitions/nope' } } },
      "can't resolve",
    ],
    ['an async schema', { type: 'object', $async: true }, '$async'],
    ['a non-string $id', { type: 'object', $id: 5 }, '$id must be a string'],
  ])('refuses %s as invalid_config naming the option', (_name, schema, problem) => {
    const { code, detail } = configError(schema);
    expect(code).toBe('invalid_config');
    expect(detail).toContain(`"${OPTION}"`);
    expect(detail).toContain(problem);
  });

  it('accepts required properties declared beside an anyOf', () => {
    const schema = {
      type: 'object',
      properties: { email: { type: 'string' }, phone: { type: 'string' } },
      anyOf: [{ required: ['email'] }, { required: ['phone'] }],
    };
    const validate = compileBodySchema(schema, OPTION);
    expect(() => validate({ phone: '1' })).not.toThrow();
    expect(failure(schema, {}).code).toBe('invalid_body');
  });

  it('compiles two schemas with the same $id independently (many stores in one process)', () => {
    const first = compileBodySchema(
      { $id: 'note', type: 'object', properties: { n: { type: 'number' } } },
      OPTION,
    );
    const second = compileBodySchema(
      { $id: 'note', type: 'object', properties: { n: { type: 'string' } } },
      OPTION,
    );
    expect(() => first({ n: 1 })).not.toThrow();
    expect(() => second({ n: 'one' })).not.toThrow();
    expect(
      failure({ $id: 'note', type: 'object', properties: { n: { type: 'number' } } }, { n: 'x' }).code,
    ).toBe('invalid_body');
  });

  it('resolves local $refs and recursion', () => {
    const schema = {
      $id: 'tree',
      type: 'object',
      definitions: {
        node: {
          type: 'object',
          properties: { kids: { type: 'array', items: { $ref: '#/definitions/node' } } },
        },
      },
      properties: { root: { $ref: '#/definitions/node' }, name: { type: 'string' } },
    };
    expect(failure(schema, { root: { kids: [{ kids: [5] }] } }).errors).toEqual([
      { field: 'root.kids.0.kids.0', message: 'must be object' },
    ]);
  });
});
