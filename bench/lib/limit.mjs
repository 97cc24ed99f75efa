// The limit: a bare `node:http` server answering the store's own bytes from a table made at
// start-up, so a request is a Map lookup and `res.end(buffer)`: the most any store could do over
// HTTP here. The table is the store's answers themselves: the same store config over the same
// data, asked once per request path in-process. `create` answers the store's 201 with a fresh
// id each time.
import { createServer } from 'node:http';
import { newId } from '@store/common';
import { createStoreHandler } from '@store/core';
import { buildCases } from './cases.mjs';
import { storeConfig } from './store-config.mjs';

/** The headers the limit answers with, besides the status and the body. */
const KEPT_HEADERS = ['content-type', 'content-length', 'location'];

const NOT_FOUND = Buffer.from('{"status":404}');
const NOT_FOUND_HEADERS = { 'content-type': 'application/json', 'content-length': NOT_FOUND.length };

/** Asks the store once: the status, the kept headers and the body of its answer. */
async function ask(handler, { method = 'GET', path, headers = {}, body }) {
  const mark = path.indexOf('?');
  const answer = await handler({
    method,
    path: mark === -1 ? path : path.slice(0, mark),
    rawQuery: mark === -1 ? '' : path.slice(mark + 1),
    headers: { host: '127.0.0.1', ...headers },
    body,
    ip: '127.0.0.1',
  });
  if (answer === null || answer.stream !== undefined) throw new Error(`the store does not answer ${path}`);
  const bytes = Buffer.from(answer.body ?? '');
  const kept = Object.fromEntries(
    KEPT_HEADERS.filter((name) => answer.headers[name]).map((name) => [name, answer.headers[name]]),
  );
  return { status: answer.status, headers: { ...kept, 'content-length': bytes.length }, body: bytes };
}

/** A created document's answer with its id replaced by a fresh one per request (same length). */
function freshCreation({ status, headers, body }) {
  const text = body.toString('utf8');
  const id = JSON.parse(text)._id;
  const parts = text.split(id);
  const location = headers.location?.split(id);
  return () => {
    const fresh = newId();
    const answerHeaders = location ? { ...headers, location: location.join(fresh) } : headers;
    return { status, headers: answerHeaders, body: parts.join(fresh) };
  };
}

/** The GET answers and the POST answer makers of every case of `dataset` the limit runs. */
async function answersOf(handler, dataset) {
  const specs = buildCases()
    .filter((benchCase) => benchCase.dataset === dataset && benchCase.limit)
    .map((benchCase) => benchCase.limit);
  const gets = new Map();
  for (const spec of specs.filter((each) => (each.method ?? 'GET') === 'GET')) {
    for (const path of spec.paths ?? [spec.path]) gets.set(path, await ask(handler, { path }));
  }
  // Creations last: they add documents the reads above must not see.
  const posts = new Map();
  for (const spec of specs.filter((each) => each.method === 'POST')) {
    posts.set(spec.path, freshCreation(await ask(handler, spec)));
  }
  return { gets, posts };
}

/** The limit's server over `db` (the data set loaded), answering what the store answered. */
export async function limitApp(db, dataset) {
  const handler = createStoreHandler(storeConfig(db));
  await handler.ready;
  const { gets, posts } = await answersOf(handler, dataset).finally(() => handler.close());
  const server = createServer((req, res) => {
    const answer = req.method === 'GET' ? gets.get(req.url) : undefined;
    if (answer !== undefined) {
      res.writeHead(answer.status, answer.headers).end(answer.body);
      return;
    }
    const create = req.method === 'POST' ? posts.get(req.url) : undefined;
    if (create === undefined) {
      res.writeHead(404, NOT_FOUND_HEADERS).end(NOT_FOUND);
      return;
    }
    // The body is read (as any store must) and dropped.
    req.resume().once('end', () => {
      const created = create();
      res.writeHead(created.status, created.headers).end(created.body);
    });
  });
  return { app: server, close: async () => {} };
}
