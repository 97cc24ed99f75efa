/**
 * Every error code core answers with, its HTTP status and its problem `title` (the status's
 * reason phrase, as RFC 9457 asks for `type: "about:blank"`). Other packages keep their own
 * tables; a code missing here still renders, with the title of its status.
 */
export const ERROR_CODES = {
  invalid_query: { status: 400, title: 'Bad Request' },
  unknown_parameter: { status: 400, title: 'Bad Request' },
  unsafe_regex: { status: 400, title: 'Bad Request' },
  forbidden_operator: { status: 400, title: 'Bad Request' },
  invalid_body: { status: 400, title: 'Bad Request' },
  invalid_email: { status: 400, title: 'Bad Request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  invalid_code: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not Found' },
  token_not_found: { status: 404, title: 'Not Found' },
  user_not_found: { status: 404, title: 'Not Found' },
  method_not_allowed: { status: 405, title: 'Method Not Allowed' },
  conflict: { status: 409, title: 'Conflict' },
  already_used: { status: 409, title: 'Conflict' },
  token_expired: { status: 410, title: 'Gone' },
  payload_too_large: { status: 413, title: 'Content Too Large' },
  unsupported_media_type: { status: 415, title: 'Unsupported Media Type' },
  too_many_requests: { status: 429, title: 'Too Many Requests' },
  internal: { status: 500, title: 'Internal Server Error' },
  invalid_config: { status: 500, title: 'Internal Server Error' },
  not_implemented: { status: 501, title: 'Not Implemented' },
} as const satisfies Record<string, { status: number; title: string }>;

/** A code from {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

const STATUS_TITLES: ReadonlyMap<number, string> = new Map(
  Object.values(ERROR_CODES).map(({ status, title }) => [status, title]),
);

/** The problem `title` for a status: its reason phrase, or `Error` for a status no code uses. */
export function titleForStatus(status: number): string {
  return STATUS_TITLES.get(status) ?? (status >= 500 ? 'Internal Server Error' : 'Error');
}
