import { defineErrorCodes } from '@store/common';

/**
 * Every error this package raises, by stable snake_case code: one line per code, with the
 * HTTP status the store answers (docs/rest-api.md#errors); a bad option
 * is `@store/common`'s `OptionError` (`invalid_config`), as in every package.
 */
export const AUTH_ERROR_CODES = defineErrorCodes({
  invalid_body: 400,
  invalid_email: 400,
  invalid_code: 401,
  unauthorized: 401,
  forbidden: 403,
  account_blocked: 403,
  confirmation_required: 403,
  custom_header_required: 403,
  not_found: 404,
  token_not_found: 404,
  user_not_found: 404,
  method_not_allowed: 405,
  already_used: 409,
  approval_required: 409,
  token_expired: 410,
  unsupported_media_type: 415,
  too_many_requests: 429,
  mail_failed: 502,
  mail_unavailable: 503,
});

/** One of the codes of {@link AUTH_ERROR_CODES}. */
export type AuthErrorCode = keyof typeof AUTH_ERROR_CODES;
