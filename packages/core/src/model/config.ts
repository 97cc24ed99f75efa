/** What `createStore(config)` takes: the store's options and each resource's, with their defaults. Types only. */
import type { Collation, StoreDb } from '@store/common';
import type { RelationConstraint } from '@store/populate';
import type { MongoClient } from 'mongodb';
import type { AccessConfig, HookContext, ResourceHooks } from './hooks';
import type { StoreLogger } from './http';
import type { PluginResourceOptions, StorePlugin } from './plugin';

/** What the `db` option accepts. */
export type StorageOption = StoreDb | MongoClient | string | undefined | null;

/** What `db` accepts: a driver `Db` or embedded db, a `MongoClient`, or a connection string. */
export type StoreDbOption = StorageOption;

/** Store-wide options of `$populate`, `$fill` and nested routes: `createStore({ populate })`. */
export interface PopulateConfig {
  /**
   * Most related documents added to one document, whatever a constraint's `limit` says, so one
   * parent with a million children cannot exhaust memory. The rest is reachable through the
   * nested route, with paging.
   * @default 1000
   */
  perParentCap?: number;
  /**
   * Most `$populate` + `$fill` names in one request (more is a 400 `too_many_relations`).
   * @default 10
   */
  maxRelations?: number;
  /**
   * Batched queries per relation before one bounded query per crowded document (see
   * `@store/populate`, "Caps").
   * @default 2
   */
  batchRounds?: number;
  /**
   * Most related documents one answer may carry, counted over every document and relation (a
   * child listed under two parents counts twice, as it is sent twice). Past it the answer is a
   * 400 `too_many_documents`, before anything is serialized. At a typical 500 bytes a document,
   * the default keeps an answer to about 5 MB.
   * @default 10000
   */
  maxDocuments?: number;
}

/**
 * Server-side constraint on one relation, `resources.<resource>.population.<relation>`:
 * `{ match, sort, order, limit }`, `match` a filter or a function of the request context.
 */
export type PopulationConstraint = RelationConstraint<HookContext>;

/**
 * Options of one resource, under `resources.<name>`; plugins add theirs (`auth` with
 * `@store/auth-magic`) through {@link PluginResourceOptions}.
 */
export interface ResourceConfig extends PluginResourceOptions {
  /**
   * Store `createdAt` / `updatedAt` Dates on this resource.
   * @default the global `timestamps`
   */
  timestamps?: boolean;
  /**
   * Fields `$search` looks in. A text index over them is ensured at start-up; `$search` on a
   * resource without searchable fields is a 400 `invalid_query`.
   * @default []
   */
  search?: string[];
  /**
   * Fields holding GeoJSON. A `2dsphere` index on each is ensured at start-up; `geo:near` needs
   * one (without it, the query answers 400 `invalid_query`), `geo:ins` / `geo:win` do not.
   * @default []
   */
  geo?: string[];
  /**
   * Fields to index (ascending; MongoDB and the embedded engine read an index either way): range
   * filters and sorts on them use it instead of a scan (`n:gte=5001&$sort=-n`). Ensured at start-up.
   * @default []
   */
  indexes?: string[];
  /**
   * The collection that holds the documents.
   * @default the resource name
   */
  collection?: string;
  /**
   * Singular form of the resource name in reference fields (`<singular>_id`, `<singular>_ids`),
   * for names the pluralization library gets wrong: `{ staff: { singular: 'staffer' } }`.
   * @default pluralize.singular(name): `companies` -> `company`, `people` -> `person`
   */
  singular?: string;
  /**
   * Server-side constraints per relation, `population.<related resource> = { match, sort,
   * order, limit }` (`match` a filter or a function of the request context, `limit` per
   * document). The reference fields of each declared relation are indexed at start-up.
   * @default {}
   */
  population?: Record<string, PopulationConstraint>;
  /**
   * Who may do what (see docs/access.md): one rule for every operation, or
   * `{ read, create, update, delete }` (an operation left out is `"none"`). A rule is `"public"`,
   * `"authenticated"`, `"owner"`, `"none"` or a function of the request context.
   * @default the store's `defaultAccess` (a plugin may set another: `"owner"` on `_id` for the user resource of `auth`)
   */
  access?: AccessConfig;
  /**
   * The field `"owner"` rules compare with the signed-in user's `_id` (a top-level field).
   * @default "user_id"
   */
  ownerField?: string;
  /**
   * Fields never returned by any route or relation, and never accepted in a filter or `$sort`.
   * @default []
   */
  hidden?: string[];
  /**
   * Top-level fields no client request may write: a `POST` carrying one, a `PUT` changing one or
   * a `PATCH` naming one (or a path inside it) is a 403 `forbidden` naming it. Server code writes
   * them through `ctx.db` (or the database). For roles, `blocked` flags, balances.
   * @default []
   */
  protected?: string[];
  /**
   * `DELETE` sets `deletedAt` (a Date) instead of removing the document; every read, count,
   * `$populate`, `$fill` and nested route then leaves such documents out, unless the request
   * carries `$$withDeleted=1` and the read rule allows it. `deletedAt` becomes protected: no
   * request writes it, so no client can undelete (server code can, through the database).
   * @default false
   */
  softDelete?: boolean;
  /**
   * How the resource's lists compare strings, as MongoDB's collation document:
   * `{ locale: 'en', strength: 2 }` makes filters (`?name=alice` finds "Alice") and `$sort`
   * case-insensitive, `numericOrdering: true` sorts "item 10" after "item 9". It applies to
   * `GET /<res>` (and nested lists), its counts and cursors, bulk `PATCH`/`DELETE` by filter, and
   * the resource's `indexes` (created with it, so MongoDB uses them). Lookups by id and relation
   * joins compare ids by their bytes, as before.
   * @default undefined (strings compare by their bytes, MongoDB's "simple" collation)
   */
  collation?: Collation;
  /**
   * `beforeRead`, `beforeWrite` and `afterRead` (see docs/access.md).
   * @default {}
   */
  hooks?: ResourceHooks;
  /**
   * JSON Schema (checked with Ajv) every `POST`, `PUT` and `PATCH` must satisfy; a `PATCH` is
   * checked as the document it would produce. Failures answer 400 `invalid_body` with `errors`.
   * @default undefined (no schema)
   */
  schema?: Record<string, unknown>;
}

/** `realtime`: limits of the change-event streams. */
export interface RealtimeConfig {
  /**
   * Most open event streams per store; past it a new one is 503 `too_many_subscribers`.
   * @default 10000
   */
  maxSubscribers?: number;
  /**
   * Most open event streams of one client: its session when signed in, else its address (see
   * `trustedProxies`); past it a new one is 429 `too_many_streams`.
   * @default 100
   */
  maxStreamsPerClient?: number;
  /**
   * The share of `maxSubscribers` kept for signed-in readers: anonymous streams together hold
   * at most the rest; past it an anonymous one is 429 `too_many_streams`.
   * @default 0.5
   */
  signedInShare?: number;
  /**
   * Seconds between the comment lines that keep an idle stream open through proxies; at each,
   * streams whose session ended in another process end too.
   * @default 15
   */
  keepAliveSeconds?: number;
  /**
   * Changes kept for reconnects with `Last-Event-ID`; an older id gets a `reset` event.
   * @default 1000
   */
  replayEvents?: number;
  /**
   * Bytes of documents the replay window keeps (the oldest changes go first past it): bytes,
   * or a size such as `"16mb"`.
   * @default "16mb"
   */
  replayBytes?: number | string;
  /**
   * Bytes of events waiting for one slow reader; past it the stream ends with a `dropped`
   * event. One event always fits into an empty queue, whatever its size.
   * @default four times `bodyLimit` ("4mb")
   */
  maxQueuedBytes?: number | string;
}

/** A budget given per request: called once per request with its context (a signed-in admin can get more). */
export type BudgetFunction = (ctx: HookContext) => number | Promise<number>;

/**
 * What one request may cost (`budgets`); each a positive integer, or a {@link BudgetFunction}
 * whose result is checked the same way.
 */
export interface BudgetsConfig {
  /**
   * Most documents one database operation of a request may examine (tested against its filter)
   * on the embedded engine; past it: 422 `budget_exceeded`. MongoDB has no such limit (only
   * `timeMS` and `answerBytes` apply there).
   * @default 1000000
   */
  examined?: number | BudgetFunction;
  /**
   * Time limit, in ms, of each database operation of a request, on both engines (`maxTimeMS`);
   * past it: 503 `query_timeout`.
   * @default the top-level `maxTimeMS` (5000); setting both is refused
   */
  timeMS?: number | BudgetFunction;
  /**
   * Most bytes of the JSON answer of a read (`GET`, `HEAD`; relations included): bytes or a
   * size such as `"16mb"`, at least `bodyLimit`; past it: 422 `budget_exceeded`.
   * @default sixteen times `bodyLimit` ("16mb")
   */
  answerBytes?: number | string | BudgetFunction;
}

/** Cross-origin access (`cors`): which origins may call the store from a browser. */
export interface CorsConfig {
  /**
   * Allowed origins (`https://app.example.com`), `"*"` for any, or a function answering whether
   * an origin (the request's `Origin` header, such as `http://localhost:5173`) may call: only
   * `true` allows it, and one that throws allows nothing.
   */
  origins: readonly string[] | '*' | ((origin: string) => boolean);
  /**
   * Whether cookies and credentials go along (`Access-Control-Allow-Credentials`); the origin
   * is then echoed instead of `*`.
   * @default false
   */
  credentials?: boolean;
}

/** One class of `rateLimit`: a bucket of `limit` requests, refilled at `limit` per `windowSeconds`. */
export interface RateLimitPolicyConfig {
  /** Requests a client may send at once (the bucket's size), and per window. */
  limit?: number;
  /** Seconds in which an empty bucket fills again (tokens come back one by one, evenly). */
  windowSeconds?: number;
}

/**
 * `rateLimit`: token buckets per client (its session, else its address through
 * `trustedProxies`), one per class of request; a class set to `false` is not limited.
 */
export interface RateLimitConfig {
  /**
   * `GET` and `HEAD` (an event stream's opening counts under `streams` instead).
   * @default { limit: 1000, windowSeconds: 60 }
   */
  reads?: RateLimitPolicyConfig | false;
  /**
   * `POST`, `PUT`, `PATCH`, `DELETE` (and any other method but a CORS preflight).
   * @default { limit: 300, windowSeconds: 60 }
   */
  writes?: RateLimitPolicyConfig | false;
  /**
   * Openings of change-event streams (`GET /<res>` with `Accept: text/event-stream`).
   * @default { limit: 60, windowSeconds: 60 }
   */
  streams?: RateLimitPolicyConfig | false;
  /**
   * Clients whose buckets each class keeps in memory; past it the least recently seen client's
   * bucket is dropped (it starts full if that client comes back).
   * @default 10000
   */
  maxClients?: number;
}

/**
 * `dialects`: the foreign client dialects the store reads besides its own query language.
 * With any of them on, `DELETE` of one document answers 200 with the deleted document,
 * problem bodies also carry `message`, and nested routes match `<singular>Id` as well.
 */
export interface DialectsConfig {
  /**
   * json-server's parameters (0.17 and v1): `_sort`/`_order`, `_start`/`_end`/`_limit`,
   * `_page`/`_per_page`, `<field>_gte`/`_lte`/`_ne`/`_like`, `q`, `_embed`/`_expand`; lists
   * always carry `X-Total-Count` and `Link`.
   * @default false
   */
  jsonServer?: boolean;
  /**
   * simple-rest's parameters (react-admin's `ra-data-simple-rest`): `filter`, `range`, `sort` as
   * JSON and the `Range` header; lists always carry `Content-Range`.
   * @default false
   */
  simpleRest?: boolean;
}

/** The name of the primary key on the wire (`wireId`): the stored `_id`, or `id`. */
export type WireId = '_id' | 'id';

/** The configuration of a store: what `createStore(config)` takes. */
export interface StoreConfig {
  /**
   * Where documents live: a driver `Db` or an embedded db, a `MongoClient` (its default
   * database), or a MongoDB connection string (the store opens and closes that client).
   * @default undefined (or null): a fresh in-memory embedded engine, closed by `close()`
   */
  db?: StoreDbOption;
  /**
   * Where the embedded engine keeps its data when no `db` is given: a directory (created if
   * missing; every acknowledged write survives a crash; one process at a time), or `"memory"`.
   * Cannot be combined with `db`.
   * @default undefined: in memory (the data is lost when the process exits)
   */
  data?: string;
  /**
   * CORS for the store's routes: `true` for any origin, or `{ origins, credentials }` (`origins`: a
   * list, `"*"`, or a function of the origin).
   * Preflights are answered, answers carry `Access-Control-Allow-Origin` and expose
   * `X-Total-Count`, `Link`, `Content-Range`, `ETag`, `Location`, `Retry-After`, `RateLimit`, `RateLimit-Policy`.
   * @default false (no CORS headers; a preflight is not answered as one)
   */
  cors?: boolean | CorsConfig;
  /**
   * Per-resource options, keyed by resource name.
   * @default {}
   */
  resources?: Record<string, ResourceConfig>;
  /**
   * Route only the resources declared in `resources`; other names pass to the next handler.
   * @default false
   */
  restrict?: boolean;
  /**
   * The access of every resource that declares no `access` (undeclared resources included):
   * a rule or `{ read, create, update, delete }`, as `resources.<name>.access`.
   * @default "public"
   */
  defaultAccess?: AccessConfig;
  /**
   * Public address of the store, used in `Location` headers (`<baseUrl>/<res>/<id>`).
   * @default undefined: the path the store is mounted at (`/api` under `app.use('/api', ...)`)
   */
  baseUrl?: string;
  /**
   * Page size when a list request has no `$limit`.
   * @default 10
   */
  defaultLimit?: number;
  /**
   * Largest page size; a larger `$limit` is clamped to it.
   * @default 1000
   */
  maxLimit?: number;
  /**
   * Most documents one bulk request handles: items of a `POST` array, and documents a bulk
   * `PATCH` / `DELETE` by filter matches (past it: 400 `too_many_items`, before any write).
   * @default 1000
   */
  maxBulk?: number;
  /**
   * Change events (`GET /<res>` with `Accept: text/event-stream`, docs/realtime.md); `false`
   * answers such requests as plain lists.
   * @default { maxSubscribers: 10000, maxStreamsPerClient: 100, signedInShare: 0.5, keepAliveSeconds: 15, replayEvents: 1000, replayBytes: "16mb", maxQueuedBytes: four times bodyLimit }
   */
  realtime?: RealtimeConfig | false;
  /**
   * Largest accepted request body: bytes, or a string such as `"512kb"` or `"1mb"`.
   * @default "1mb"
   */
  bodyLimit?: number | string;
  /**
   * Time limit of every query the store sends: the default of `budgets.timeMS` (set one of
   * them, not both), and the limit of the queries no request makes (plugins, start-up).
   * @default 5000
   */
  maxTimeMS?: number;
  /**
   * What one request may cost: documents examined per operation (embedded engine), time per
   * operation, bytes of a read's answer; each a number or a function of the request.
   * @default { examined: 1000000, timeMS: maxTimeMS (5000), answerBytes: sixteen times bodyLimit ("16mb") }
   */
  budgets?: BudgetsConfig;
  /**
   * Store `createdAt` / `updatedAt` Dates on every resource (a resource can override it).
   * @default false
   */
  timestamps?: boolean;
  /**
   * Key of the HMAC over every stored sign-in secret and session token (`STORE_SECRET`), at
   * least 16 characters. Keep it stable: changing it ends every session.
   * @default a random secret per process, with one warning (only when auth is configured)
   */
  secret?: string;
  /**
   * `$populate`, `$fill` and nested routes: the per-document cap, relations per request.
   * @default { perParentCap: 1000, maxRelations: 10, batchRounds: 2, maxDocuments: 10000 }
   */
  populate?: PopulateConfig;
  /**
   * Plugins, each claiming a resource option: `[magicAuth]` from `@store/auth-magic` turns
   * `resources.user.auth` into passwordless login.
   * @default []
   */
  plugins?: readonly StorePlugin[];
  /**
   * Reverse proxies whose `X-Forwarded-For` the store believes: IP addresses or CIDR ranges,
   * IPv4 or IPv6 (`["10.0.0.0/8", "::1"]`). When a request comes from one of them, its client is
   * the rightmost address of `X-Forwarded-For` that is not a trusted proxy; from anyone else the
   * header is ignored. Limits per client (rate limits, stream caps, sign-in send limits) count by
   * this address when the client is not signed in. Leave it empty when the framework already
   * resolves the address (Express's `trust proxy`, Koa's `app.proxy`).
   * @default []
   */
  trustedProxies?: readonly string[];
  /**
   * Rate limits per client for every route of the store (resources, plugin routes, event
   * streams), kept in memory per process: `true` or `{}` for the defaults of each class, or
   * `{ reads, writes, streams, maxClients }`. Past a bucket: 429 `rate_limited` with
   * `Retry-After`; every answer of a limited route carries `RateLimit-Policy` and `RateLimit`.
   * @default undefined: off (the `store serve` command turns it on with the defaults)
   */
  rateLimit?: boolean | RateLimitConfig;
  /**
   * Foreign client dialects read besides the store's own query language: `true` for both, or
   * `{ jsonServer, simpleRest }`. With them off, a parameter named as in another dialect
   * (`_sort`, `_page`, `range`, ...) answers 400 `foreign_dialect_parameter` naming this option,
   * unless a declared field has that name.
   * @default false (the store's own dialect only)
   */
  dialects?: boolean | DialectsConfig;
  /**
   * The primary key's name on the wire. `'id'` presents `_id` as `id` everywhere a client sees
   * or sends it: answers (populated and filled documents too), filters (`?id=2&id=5`,
   * `id:in`, `$or`, `$query`, `$regex`), `$sort`, `$select`, bodies (a POST, PUT or PATCH body's
   * `id` is the `_id`: a POST keeps its value and type, a PUT or PATCH must name the path's
   * document), change events and the API description. Storage, hooks, access functions and the
   * `db` handle keep `_id`; `_id` is still read in filters and bodies. A stored field named `id`
   * is not shown (the primary key has that name); a body with both `id` and `_id` is a 400.
   * @default '_id'
   */
  wireId?: WireId;
  /**
   * Receives the causes of 500 answers and warnings.
   * @default console
   */
  logger?: StoreLogger;
}
