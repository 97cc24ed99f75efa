import {
  HOOK_FAILURE_DETAIL,
  HOOK_REFUSAL_DETAIL,
  isPlainObject,
  isStoreError,
  titleForStatus,
} from '@store/common';
import { ERROR_CODES, type ErrorCode } from '../model/error-codes';
import type { StoreLogger, StoreResponse } from '../model/http';

/**
 * The RFC 9457 problem document every 4xx/5xx answer carries, plus any extension members of
 * the error (such as `errors` of an `invalid_body`).
 */
export interface Problem {
  type: 'about:blank';
  title: string;
  status: number;
  detail: string;
  code: string;
  [member: string]: unknown;
}

interface Recognized {
  status: number;
  code: string;
  detail: string;
  headers?: Record<string, string>;
  extensions?: Record<string, unknown>;
}

/** Members an extension can never set: the problem's own. */
const PROBLEM_MEMBERS: ReadonlySet<string> = new Set(['type', 'title', 'status', 'detail', 'code']);

/** The extension members to render: own keys of a plain object, the problem's own members dropped. */
function extensionMembers(extensions: unknown): Record<string, unknown> {
  if (!isPlainObject(extensions)) return {};
  return Object.fromEntries(Object.entries(extensions).filter(([key]) => !PROBLEM_MEMBERS.has(key)));
}

/**
 * Database errors a request can cause (MongoDB's codes; the embedded engine raises the same),
 * answered with a fixed detail: the database's own message may quote stored values.
 */
const DATABASE_ERRORS: Readonly<Record<number, { code: ErrorCode; detail: string }>> = {
  2: { code: 'invalid_query', detail: 'The database refused a value of the query.' },
  14: { code: 'invalid_body', detail: 'A field of the body has the wrong type for this change.' },
  28: { code: 'invalid_body', detail: 'A dotted key goes through a field that is not an object.' },
  40: { code: 'invalid_body', detail: 'Two keys of the body change the same field.' },
  54: {
    code: 'invalid_body',
    detail: 'A dotted key goes through an array or a value that is not an object.',
  },
  16755: {
    code: 'invalid_body',
    detail: 'A geo field holds no valid GeoJSON (the database could not index it).',
  },
  51091: { code: 'invalid_query', detail: 'The database refused a regular expression of the query.' },
  5626500: {
    code: 'invalid_query',
    detail: 'The database cannot use $near or $nearSphere here (a count or an aggregation).',
  },
  291: {
    code: 'invalid_query',
    detail: 'geo:near needs a 2dsphere index on the field: list it in resources.<name>.geo.',
  },
  // Rendered without the request's options: "id" names the key under either `wireId`.
  11000: { code: 'conflict', detail: 'A document with the same id (or unique key) already exists.' },
  14031: {
    code: 'disk_full',
    detail:
      "The database's disk is full: the change is not confirmed as saved (read before sending it " +
      'again). Reads still answer; writes resume by themselves once space is freed on the disk.',
  },
};

const INTERNAL = { code: 'internal', detail: 'The server failed to answer the request.' } as const;

/**
 * What an error answers: a `StoreError` (every package's errors extend it) as it says; a known
 * database error code by {@link DATABASE_ERRORS}; anything else a 500 `internal`.
 */
function recognize(error: unknown): Recognized {
  if (isStoreError(error)) {
    const { status, code, detail, headers, extensions } = error;
    return { status, code, detail, headers, extensions };
  }
  const dbCode = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const known = typeof dbCode === 'number' ? DATABASE_ERRORS[dbCode] : undefined;
  const { code, detail } =
    known !== undefined && Object.hasOwn(DATABASE_ERRORS, dbCode as number) ? known : INTERNAL;
  return { status: ERROR_CODES[code], code, detail };
}

/** The problem document for an error; anything unrecognized is a 500 `internal`. */
export function toProblem(error: unknown): { problem: Problem; headers: Record<string, string> } {
  const { status, code, detail, headers = {}, extensions } = recognize(error);
  const title = titleForStatus(status);
  return {
    problem: { type: 'about:blank', title, status, detail, code, ...extensionMembers(extensions) },
    headers,
  };
}

/**
 * The one place that turns any error into an `application/problem+json` answer. A 500 logs
 * its cause through `logger` and carries no internals (no stack, no driver message). With
 * `withMessage` (a foreign client dialect is on: react-admin and Refine show `message`), the
 * problem also carries `message`, the same text as `detail`.
 */
export function renderError(error: unknown, logger: StoreLogger, withMessage = false): StoreResponse {
  const { problem, headers } = toProblem(error);
  if (withMessage) problem.message = problem.detail;
  if (problem.detail === HOOK_FAILURE_DETAIL && isStoreError(error)) {
    logger.error(`[@store/core] a hook or access function failed with ${problem.status}`, error.cause);
  } else if (problem.status >= 500 && problem.code === 'internal') {
    logger.error('[@store/core] unexpected error while answering a request', error);
  } else if (problem.detail === HOOK_REFUSAL_DETAIL && isStoreError(error) && error.cause !== undefined) {
    logger.warn('[@store/core] a hook or access function threw an error without an HTTP status', error.cause);
  }
  const body = JSON.stringify(problem);
  return {
    status: problem.status,
    headers: {
      ...headers,
      'content-type': 'application/problem+json',
      'content-length': String(Buffer.byteLength(body)),
    },
    body,
  };
}
