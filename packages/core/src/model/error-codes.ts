import { defineErrorCodes, errorFactory } from '@store/common';

/**
 * Every error code core answers with, and its HTTP status; the problem `title` is the status's
 * reason phrase (`@store/common`'s table). Each other package keeps its own table of this shape.
 */
export const ERROR_CODES = defineErrorCodes({
  /** A value the database refused in a query (the query's own codes are `@store/query`'s). */
  invalid_query: 400,
  /** A body the store refuses. */
  invalid_body: 400,
  /** A bulk `PATCH` or `DELETE` without any filter. */
  filter_required: 400,
  /** A bulk request past `maxBulk` documents. */
  too_many_items: 400,
  /**
   * A request past one of its budgets (`budgets.examined`, `budgets.answerBytes`): the problem
   * names it (`budget`) and its value (`limit`).
   */
  budget_exceeded: 422,
  /** No session where one is needed. */
  unauthorized: 401,
  /** Refused by an access rule. */
  forbidden: 403,
  not_found: 404,
  /** A CORS preflight from an origin the `cors` option does not allow. */
  origin_not_allowed: 403,
  /** The method is not one the route takes (with `Allow`). */
  method_not_allowed: 405,
  /** A taken `_id` or unique key. */
  conflict: 409,
  /** `If-Match` names a tag the document, as the caller sees it, no longer has (or it is gone). */
  precondition_failed: 412,
  /** A body past `bodyLimit`. */
  payload_too_large: 413,
  /** A body that is not JSON. */
  unsupported_media_type: 415,
  /** Anything unforeseen: its cause is logged, never sent. */
  internal: 500,
  /** The database cannot be reached (with `Retry-After`); the store reconnects on its own. */
  database_unavailable: 503,
  /** More event streams open than `realtime.maxSubscribers` allows (with `Retry-After`). */
  too_many_subscribers: 503,
  /**
   * One client holds `realtime.maxStreamsPerClient` streams, or anonymous readers hold their
   * whole share (with `Retry-After`).
   */
  too_many_streams: 429,
  /**
   * A client spent its `rateLimit` bucket of this class of request (with `Retry-After`,
   * `RateLimit-Policy` and `RateLimit`).
   */
  rate_limited: 429,
  /** A database operation ran past its time budget (`budgets.timeMS`, `maxTimeMS`), on either engine. */
  query_timeout: 503,
  /**
   * The database's disk (or quota) is full: a write was refused (MongoDB's `OutOfDiskSpace`,
   * 14031, on either engine) while reads still answer; writes work again once space is freed.
   */
  disk_full: 507,
  /**
   * The storage engine refused a request it does not implement, naming it (the embedded engine's
   * `NotImplemented`, 238: for example `$expr` under a resource's `collation`); never answered otherwise.
   */
  not_supported: 501,
  /** A bad option at `createStore` (an `OptionError`); never an HTTP answer. */
  invalid_config: 500,
});

/** A code from {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The {@link StoreError} of a core code, its status from {@link ERROR_CODES}. */
export const storeError = errorFactory(ERROR_CODES);
