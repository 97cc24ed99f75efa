/**
 * The HTTP side of the conformance suite: a served store and a small fetch client. The
 * suite is written once against {@link Serve}; each adapter runs it with its own server
 * (`packages/adapter-express/test/conformance.test.ts` for Express 5 and 4).
 */
import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Document, StoreDb } from '@store/common';
import type { StoreConfig } from '@store/core';
import { afterEach, assert, expect } from 'vitest';
import type { EngineUnderTest } from '../engines';

/** How the suite wants the store mounted. */
export interface ServeOptions {
  /** Mount path. @default '/api' */
  prefix?: string;
  /** Mount the framework's own JSON body parser in front of the store. @default false */
  bodyParser?: boolean;
}

/** A listening server: `url` ends with the mount path. */
export interface Served {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `createStore(config)` at `prefix` on 127.0.0.1 and an ephemeral port. Requests the
 * store passes on must reach a final handler answering 404 `{ "fallthrough": true }`.
 */
export type Serve = (config: StoreConfig, options?: ServeOptions) => Promise<Served>;

/**
 * Listens with `handler` on 127.0.0.1 and an ephemeral port: the shared tail of every adapter's
 * {@link Serve}. The {@link Served} it returns has a `url` ending with `prefix`; its `close()` drops
 * open connections, stops the server, then closes `store`.
 */
export async function listenServed(
  handler: RequestListener,
  prefix: string,
  store: { close(): Promise<void> },
): Promise<Served> {
  const server = createServer(handler).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
    },
  };
}

/** A value `JSON.parse` gives: what a JSON answer holds. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** An answer's parsed body: `undefined` when it is not JSON or is empty. */
export type ReplyJson = JsonValue | undefined;

/** `value` as JSON text, cut short, for an assertion message. */
function shown(value: ReplyJson): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/** `value` as an array; fails the test when it is anything else. */
export function asArray(value: ReplyJson): JsonValue[] {
  if (!Array.isArray(value)) assert.fail(`expected a JSON array, got ${shown(value)}`);
  return value;
}

/** Whether `value` is an object (not an array, not null). */
const isObject = (value: ReplyJson): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` as an object (not an array, not null); fails the test when it is anything else. */
export function asObject(value: ReplyJson): JsonObject {
  if (!isObject(value)) assert.fail(`expected a JSON object, got ${shown(value)}`);
  return value;
}

/** `value` as a string; fails the test when it is anything else. */
export function asString(value: ReplyJson): string {
  if (typeof value !== 'string') assert.fail(`expected a JSON string, got ${shown(value)}`);
  return value;
}

/**
 * The member `names` leads to: `field(doc, 'user', '_id')` is `doc.user._id`, `undefined` when the
 * last member is missing. Fails the test when `doc`, or a member on the way, is not an object.
 */
export function field(doc: ReplyJson, ...names: [string, ...string[]]): ReplyJson {
  let value = doc;
  for (const name of names) value = asObject(value)[name];
  return value;
}

/** One answer, read whole. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: ReplyJson;
}

/** What a request may carry: `body` is sent as JSON; `raw` as is. */
interface Send {
  body?: unknown;
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** A client of one served store, plus the database behind it. */
export interface Api {
  url: string;
  db: StoreDb;
  request(method: string, path: string, send?: Send): Promise<Reply>;
  get(path: string): Promise<Reply>;
  post(path: string, body: unknown): Promise<Reply>;
  /** POSTs each document to `/<resource>` and expects 201. */
  seed(resource: string, documents: unknown[]): Promise<ReplyJson[]>;
}

async function read(response: Response): Promise<Reply> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const json: ReplyJson = type.includes('json') && text !== '' ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, text, json };
}

function client(url: string, db: StoreDb): Api {
  const request = async (method: string, path: string, send: Send = {}) => {
    const json = send.body === undefined ? undefined : JSON.stringify(send.body);
    const headers = {
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      ...send.headers,
    };
    return read(await fetch(`${url}${path}`, { method, headers, body: send.raw ?? json }));
  };
  const api: Api = {
    url,
    db,
    request,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, { body }),
    async seed(resource, documents) {
      const created: ReplyJson[] = [];
      for (const document of documents) {
        const reply = await api.post(`/${resource}`, document);
        expect(reply.status, reply.text).toBe(201);
        created.push(reply.json);
      }
      return created;
    },
  };
  return api;
}

/**
 * Returns `start(config?, options?)`: a fresh database of `engine` served by `serve`, closed
 * after each test. `config.db` defaults to that database.
 */
export function useServer(engine: EngineUnderTest, serve: Serve) {
  const open: Served[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((served) => served.close()));
  });
  return async (config: StoreConfig = {}, options: ServeOptions = {}): Promise<Api> => {
    const db = await engine.createDb();
    const served = await serve({ db, ...config }, options);
    open.push(served);
    return client(served.url, db);
  };
}

/**
 * A document as the store stored it, read from the database behind `api`, without the store's
 * revision field, which it asserts is there (every write through the store sets one).
 */
export async function readStored(api: Api, collection: string, filter: Document): Promise<Document | null> {
  const stored = await api.db.collection(collection).findOne(filter);
  if (stored === null) return null;
  const { _store_rev: revision, ...document } = stored;
  expect(typeof revision, "the store's revision field").toBe('string');
  return document;
}

/** Asserts an RFC 9457 problem answer with this status and code. */
export function expectProblem(reply: Reply, status: number, code: string): void {
  const answered = isObject(reply.json) ? reply.json.code : undefined;
  expect({ status: reply.status, code: answered }, reply.text).toEqual({ status, code });
  expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(reply.json).toMatchObject({ type: 'about:blank', status, code });
  expect(typeof field(reply.json, 'title')).toBe('string');
  expect(field(reply.json, 'detail')).toEqual(expect.any(String));
  expect(asString(field(reply.json, 'detail')).length).toBeGreaterThan(0);
}

/** Asserts the store passed the request on to the host app's next handler. */
export function expectPassedOn(reply: Reply): void {
  expect({ status: reply.status, json: reply.json }, reply.text).toEqual({
    status: 404,
    json: { fallthrough: true },
  });
}
