/**
 * Errors in the OpenAPI description: the shared `Problem` schema (what the store answers on every
 * error, `renderError` of `@store/core`) with every known `code`, and one shared response per error status.
 */
import { titleForStatus } from '@store/common';
import type { StoreDescription } from '@store/core';
import type { JsonObject } from './json-object';

const PROBLEM_REF = '#/components/schemas/Problem';
const PROBLEM_JSON = 'application/problem+json';

/** Codes never answered over HTTP. */
const NOT_ANSWERED: ReadonlySet<string> = new Set(['invalid_config']);

/** Every code the store (its query language and relationships included) and its active plugins answer with, sorted. */
function knownCodes(store: Pick<StoreDescription, 'errorCodes' | 'plugins'>): string[] {
  const tables = [store.errorCodes, ...store.plugins.map((plugin) => plugin.errorCodes)];
  const codes = new Set(tables.flatMap((table) => Object.keys(table)));
  return [...codes].filter((code) => !NOT_ANSWERED.has(code)).sort();
}

/** The RFC 9457 problem document of every 4xx/5xx answer. */
export function problemSchema(store: Pick<StoreDescription, 'errorCodes' | 'plugins'>): JsonObject {
  return {
    type: 'object',
    description: 'An RFC 9457 problem: every 4xx and 5xx answer carries one.',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { const: 'about:blank' },
      title: { type: 'string', description: 'The reason phrase of `status`.' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string', description: 'What is wrong, naming the parameter, key or option.' },
      code: {
        description: 'A stable snake_case code, meant for programs.',
        anyOf: [
          { type: 'string', enum: knownCodes(store), description: 'A code of the store or a plugin.' },
          { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$', description: "A hook's own code." },
        ],
      },
      errors: {
        type: 'array',
        description: '`invalid_body` against a `schema`: each failing field (at most 50).',
        items: {
          type: 'object',
          required: ['field', 'message'],
          properties: { field: { type: 'string' }, message: { type: 'string' } },
        },
      },
      index: { type: 'integer', minimum: 0, description: 'A bulk create: the failing item.' },
    },
  };
}

/** The shared error responses: status -> component name and when it is answered. */
const PROBLEM_RESPONSES = {
  400: ['BadRequest', 'A query parameter or the body is invalid (`invalid_query`, `invalid_body`, ...).'],
  401: ['Unauthorized', 'No valid session where the access rule needs one.'],
  403: ['Forbidden', 'The access rule, a protected field or a hook refuses the request.'],
  404: [
    'NotFound',
    'No document has the id (or it does not match the filters, or the caller may not see it).',
  ],
  409: ['Conflict', 'The `_id` (or a unique key) is taken.'],
  412: [
    'PreconditionFailed',
    '`If-Match` names a tag the document, as the caller sees it, no longer has (nothing changed).',
  ],
  413: ['ContentTooLarge', 'The body exceeds `bodyLimit`.'],
  415: ['UnsupportedMediaType', 'The body is not JSON.'],
} as const satisfies Record<number, readonly [string, string]>;

/** A status of {@link PROBLEM_RESPONSES}. */
export type ProblemStatus = keyof typeof PROBLEM_RESPONSES;

const problemContent = { [PROBLEM_JSON]: { schema: { $ref: PROBLEM_REF } } };

/** `components.responses`: one per error status, and `Problem` for any other error. */
export function problemResponseComponents(): JsonObject {
  const entries = Object.entries(PROBLEM_RESPONSES).map(([status, [name, when]]) => [
    name,
    { description: `${titleForStatus(Number(status))}: ${when}`, content: problemContent },
  ]);
  const other = {
    description: 'Any other error (500 `internal`, 503 `database_unavailable` with `Retry-After`, ...).',
    content: problemContent,
  };
  return Object.fromEntries([...entries, ['Problem', other]]);
}

/** The error responses of an operation: the shared ones of `statuses`, and `default` for the rest. */
export function problemResponses(statuses: readonly ProblemStatus[]): JsonObject {
  const listed = statuses.map((status) => [
    String(status),
    { $ref: `#/components/responses/${PROBLEM_RESPONSES[status][0]}` },
  ]);
  return { ...Object.fromEntries(listed), default: { $ref: '#/components/responses/Problem' } };
}
