/**
 * The framework-agnostic request and response shapes: an adapter turns its framework's
 * request into a {@link StoreRequest}, calls the {@link StoreHandler} and writes the
 * {@link StoreResponse} back (or passes on when the handler answers `null`).
 */

/** A request body that a host body parser already consumed (for example `express.json()`). */
export interface ParsedBody {
  /** The parsed value; every body rule is applied to it again. A string or bytes count as raw text. */
  readonly parsed: unknown;
}

/**
 * How a body reaches core. Raw forms are read lazily, only by routes that take a body, and
 * only up to `bodyLimit`:
 * - `string` / `Uint8Array`: the raw body;
 * - `AsyncIterable<Uint8Array>`: a stream of it (a Node `IncomingMessage`, a web `ReadableStream`);
 * - {@link ParsedBody}: the value a host body parser produced.
 */
export type StoreRequestBody = string | Uint8Array | AsyncIterable<Uint8Array> | ParsedBody;

/** Request headers with lower-case names, as Node's `IncomingMessage.headers`. */
export type StoreRequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** One HTTP request, as core sees it. */
export interface StoreRequest {
  /** Upper- or lower-case HTTP method. */
  method: string;
  /** Path below the mount point, not yet percent-decoded, without the query string: `/posts/1`. */
  path: string;
  /** The raw query string, with or without its leading `?`; never a framework's parsed `req.query`. */
  rawQuery: string;
  headers: StoreRequestHeaders;
  body?: StoreRequestBody | undefined;
  /** Client address, for rate limits and logs. */
  ip?: string | undefined;
  /** Where the store is mounted (`/api` under `app.use('/api', ...)`); used for `Location` without `baseUrl`. */
  mountPath?: string | undefined;
}

/** One HTTP response, already serialized by core. */
export interface StoreResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Serialized body; absent for 204 and `HEAD`. */
  body?: string;
  /**
   * A body that keeps coming (Server-Sent Events), instead of `body`: the adapter writes each
   * chunk as it arrives, and cancels the stream when the client goes away.
   */
  stream?: ReadableStream<Uint8Array>;
}

/** The handler adapters call. Resolves `null` when no store route matches (the adapter calls `next`). */
export interface StoreHandler {
  (request: StoreRequest): Promise<StoreResponse | null>;
  /** Settles when storage is open and indexes are ensured; rejects when that failed. */
  readonly ready: Promise<void>;
  /** Closes a database client the store opened itself (never one passed in as a `Db`). */
  close(): Promise<void>;
}

/** Where the store writes the causes of 500 answers and warnings. `console` fits. */
export interface StoreLogger {
  error(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
}
